import { test, type TestContext } from 'vitest';
import type { JsonValue } from '../../protocol/json.js';
import { requirementById, type RequirementLevel } from '../../protocol/requirements.js';
import { CaseFailure, type Finding } from './finding.js';
import { scaled } from './settings.js';
import {
  BLOCKED_PREFIX,
  TARGET_STOPPED_PREFIX,
  UNTESTED_PREFIX,
  type CaseDiagnostics,
  type CaseMeta,
  type TargetStopped,
} from './case-meta.js';

/**
 * Names of the cases that run the protocol authors' interop scenarios: they are named by the
 * authors' set and scenario id, which already names what they test (suites/interop/).
 */
export const INTEROP_NAME_PREFIX = 'interop/';

/**
 * How a case is declared: its path-like name must start with its first requirement ID (an interop
 * case's with INTEROP_NAME_PREFIX).
 */
export interface CaseSpec {
  name: string;
  requirements: string[];
  /** Defaults to the catalogue level of the first requirement. */
  level?: RequirementLevel;
  transports?: string[];
  /** The mock behaviours the case uses, by kind (`hang`, `delay`...), for `explain`. */
  behaviours?: string[];
  /** Per-case timeout for vitest, in ms before the run's timeout scale. */
  timeoutMs?: number;
  /** Runs beside the file's other concurrent cases (the body must not share state with them). */
  concurrent?: boolean;
}

/** What a case body may do beyond asserting. */
export interface CaseContext {
  /** Attaches evidence (merged, last write wins per key) for the report. */
  evidence(values: Record<string, JsonValue>): void;
  /** Ends the case as `untested` with a reason: the target cannot show what the case needs. */
  untested(reason: string): never;
  /**
   * Records the requirements (ID to reason) the case's target gave no evidence for: the case stays
   * as it is, but does not count as a pass for them. Each call replaces the previous record.
   */
  untestedRequirements(reasons: Record<string, string>): void;
  /**
   * Ends the case as `blocked`: it cannot be judged because what it rests on is broken, as
   * `finding` shows (the finding is reported once, as a problem; the case names it).
   */
  blocked(finding: Finding): never;
  /** Ends the case unjudged because the target stopped being usable; the run stops (exit 3). */
  targetStopped(stop: TargetStopped): never;
  /** Attaches what people read under a failing case (merged per key). */
  diagnostics(values: CaseDiagnostics): void;
  readonly vitest: TestContext;
}

function metaFor(spec: CaseSpec): CaseMeta {
  const [first] = spec.requirements;
  if (!first || !(spec.name.startsWith(first) || spec.name.startsWith(INTEROP_NAME_PREFIX))) {
    throw new Error(`case "${spec.name}" must start with its first requirement ID`);
  }
  const known = spec.requirements.map((id) => {
    const r = requirementById(id);
    if (!r) throw new Error(`case "${spec.name}" names unknown requirement ${id}`);
    return r;
  });
  const profiles = [...new Set(known.flatMap((r) => r.profiles))];
  return {
    requirements: spec.requirements,
    level: spec.level ?? (known[0] as { level: RequirementLevel }).level,
    transports: spec.transports ?? ['none'],
    profiles,
    ...(spec.behaviours === undefined || spec.behaviours.length === 0 ? {} : { behaviours: spec.behaviours }),
  };
}

/** Declares one conformance case as a vitest test carrying its requirement metadata. */
export function conformanceCase(spec: CaseSpec, body: (ctx: CaseContext) => Promise<void> | void): void {
  const meta = metaFor(spec);
  test(
    spec.name,
    // Declared up front so that `list` sees the metadata without running the case.
    {
      meta: { ahp: meta },
      timeout: scaled(spec.timeoutMs ?? 20_000),
      ...(spec.concurrent === true ? { concurrent: true } : {}),
    },
    async (vitestContext) => {
      vitestContext.task.meta.ahp = { ...meta };
      const ctx: CaseContext = {
        vitest: vitestContext,
        evidence(values) {
          const current = vitestContext.task.meta.ahp as CaseMeta;
          const previous = (current.evidence ?? {}) as Record<string, JsonValue>;
          current.evidence = { ...previous, ...values };
        },
        untested(reason) {
          (vitestContext.task.meta.ahp as CaseMeta).untested = reason;
          vitestContext.skip(`${UNTESTED_PREFIX}${reason}`);
          throw new Error('unreachable: skip() throws');
        },
        untestedRequirements(reasons) {
          const current = vitestContext.task.meta.ahp as CaseMeta;
          if (Object.keys(reasons).length > 0) current.untestedRequirements = { ...reasons };
          else delete current.untestedRequirements;
        },
        blocked(finding) {
          (vitestContext.task.meta.ahp as CaseMeta).blocked = finding;
          vitestContext.skip(`${BLOCKED_PREFIX}${finding.message}`);
          throw new Error('unreachable: skip() throws');
        },
        targetStopped(stop) {
          (vitestContext.task.meta.ahp as CaseMeta).targetStopped = stop;
          vitestContext.skip(`${TARGET_STOPPED_PREFIX}${stop.message}`);
          throw new Error('unreachable: skip() throws');
        },
        diagnostics(values) {
          const current = vitestContext.task.meta.ahp as CaseMeta;
          current.diagnostics = { ...current.diagnostics, ...values };
        },
      };
      try {
        await body(ctx);
      } catch (error) {
        // The findings travel in the meta: the report groups them into problems.
        if (error instanceof CaseFailure) {
          (vitestContext.task.meta.ahp as CaseMeta).findings = error.findings;
        }
        throw error;
      }
    },
  );
}
