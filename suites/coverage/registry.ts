/**
 * One registry keyed by requirement ID: for each ID its level, role, profiles, the sentence it
 * rests on, its cases, and its proof (the broken twins, harness or backend, that must fail it, or
 * an in-test negative), or the reason no case checks it. `coverageProblems` says what makes a
 * registry incomplete: an ID with neither a case nor an exclusion, cases without a proof on their
 * side, a twin said to break an ID its selection holds no case of.
 */
import type { Requirement, RequirementLevel, RequirementRole } from '../../protocol/requirements.js';
import { REQUIREMENTS } from '../../protocol/requirements.js';
import { TWIN_CATALOGUE, type TwinEntry } from '../../fixtures/harnesses/catalogue.js';
import { BROKEN_HTTP_RUNS, BROKEN_STDIO_RUNS, type SelfTestCase } from '../backend/self-test-runs.js';
import { backendTwinSource, statedDefect } from './backend-twin-defect.js';
import { EXCLUSIONS, NEGATIVE_PROOFS, type Exclusion, type NegativeProof } from './proofs.js';

/** The side of the suite a case or a twin belongs to. */
export type Side = 'harness' | 'backend';

/** A case as the registry needs it (what `list` collects). */
export interface CoverageCase {
  name: string;
  file: string;
  role: Side | 'other';
  requirements: string[];
  transports: string[];
  /** The mock behaviours the case uses, by kind, when its data names them. */
  behaviours?: string[];
}

/** One broken twin's claim, in the one vocabulary of both sides: it must fail `breaks`. */
export interface TwinProof {
  side: Side;
  twin: string;
  /** What the twin gets wrong, in its own words (the defect it plants). */
  defect: string;
  /** Requirement IDs its run must fail (MUST) or, for a backend twin, warn on (SHOULD). */
  breaks: string[];
  /** Where it is judged: harness suite files and a case-name pattern, or a backend binding. */
  selection: string;
  /** Whether a case is in its selection. */
  selects(c: CoverageCase): boolean;
}

/** Where a requirement's sentence lives. */
export interface Sentence {
  document: string;
  section?: string;
  anchor: string;
}

/** One row of the registry. */
export interface CoverageEntry {
  id: string;
  level: RequirementLevel;
  role: RequirementRole;
  profiles: string[];
  sentence: Sentence;
  /** Case names by side. */
  cases: Record<Side, string[]>;
  /** Twins that must fail this ID, by side. */
  twins: Record<Side, string[]>;
  negatives: NegativeProof[];
  excluded?: Exclusion;
}

/** Everything the registry is built from; tests hand in their own. */
export interface RegistryInput {
  requirements: readonly Requirement[];
  cases: readonly CoverageCase[];
  twins: readonly TwinProof[];
  negatives: Readonly<Record<string, readonly NegativeProof[]>>;
  exclusions: Readonly<Record<string, Exclusion>>;
}

/** A glob over package-relative paths (`*` within a segment, `**` across segments). */
function globMatcher(glob: string): RegExp {
  const source = glob
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return new RegExp(`^${source}$`);
}

/** A harness twin's catalogue entry as a proof. */
export function harnessTwinProof(entry: TwinEntry): TwinProof {
  const files = entry.files.map(globMatcher);
  const pattern = entry.pattern === undefined ? undefined : new RegExp(entry.pattern);
  return {
    side: 'harness',
    twin: entry.twin,
    defect: entry.defect,
    breaks: entry.breaks,
    selection: `${entry.files.join(', ')}${entry.pattern ? ` /${entry.pattern}/` : ''}`,
    selects: (c) =>
      c.role === 'harness' && files.some((f) => f.test(c.file)) && (!pattern || pattern.test(c.name)),
  };
}

/** A backend self-test run as a proof: judged over its binding; `defect` defaults to the twin's own comment. */
export function backendTwinProof(run: SelfTestCase, defect?: string): TwinProof {
  return {
    side: 'backend',
    twin: run.example,
    defect: defect ?? statedDefect(backendTwinSource(run.example)),
    breaks: [...run.breaks, ...(run.warnings ?? [])],
    selection: `backend over ${run.binding}`,
    selects: (c) => c.role === 'backend' && c.transports.includes(run.binding),
  };
}

/** Every twin of both catalogues. */
export function catalogueTwins(): TwinProof[] {
  return [
    ...TWIN_CATALOGUE.map(harnessTwinProof),
    ...[...BROKEN_STDIO_RUNS, ...BROKEN_HTTP_RUNS].map((run) => backendTwinProof(run)),
  ];
}

/** The registry's default input: the catalogue, both twin lists, the proofs table, and `cases`. */
export function defaultRegistryInput(cases: readonly CoverageCase[]): RegistryInput {
  return {
    requirements: REQUIREMENTS,
    cases,
    twins: catalogueTwins(),
    negatives: NEGATIVE_PROOFS,
    exclusions: EXCLUSIONS,
  };
}

/** Builds the registry, one entry per catalogue requirement, in catalogue order. */
export function buildRegistry(input: RegistryInput): CoverageEntry[] {
  return input.requirements.map((r) => {
    const mine = input.cases.filter((c) => c.requirements.includes(r.id));
    const casesOn = (side: Side) => mine.filter((c) => c.role === side).map((c) => c.name);
    const twinsOn = (side: Side) =>
      [...new Set(input.twins.filter((t) => t.side === side && t.breaks.includes(r.id)).map((t) => t.twin))];
    const excluded = input.exclusions[r.id];
    return {
      id: r.id,
      level: r.level,
      role: r.role,
      profiles: r.profiles,
      sentence: r.location,
      cases: { harness: casesOn('harness'), backend: casesOn('backend') },
      twins: { harness: twinsOn('harness'), backend: twinsOn('backend') },
      negatives: [...(input.negatives[r.id] ?? [])],
      ...(excluded ? { excluded } : {}),
    };
  });
}

/** What keeps the registry from being complete, one sentence each (empty when it is). */
export function coverageProblems(input: RegistryInput): string[] {
  const problems: string[] = [];
  const known = new Set(input.requirements.map((r) => r.id));
  for (const entry of buildRegistry(input)) {
    const caseCount = entry.cases.harness.length + entry.cases.backend.length;
    if (caseCount === 0 && !entry.excluded) {
      problems.push(`${entry.id} has neither a case nor an exclusion`);
    }
    if (caseCount > 0 && entry.excluded) {
      problems.push(`${entry.id} has ${caseCount} case(s) but is excluded: remove its exclusion`);
    }
    for (const side of ['harness', 'backend'] as const) {
      const proofs = entry.twins[side].length + (side === 'harness' ? entry.negatives.length : 0);
      if (entry.cases[side].length > 0 && proofs === 0) {
        problems.push(
          `${entry.id} has ${side} cases but no proof: no ${side} twin must fail it` +
            (side === 'harness' ? ' and no in-test negative names it' : ''),
        );
      }
    }
  }
  for (const twin of input.twins) {
    for (const id of twin.breaks) {
      if (!known.has(id)) {
        problems.push(`${twin.side} twin "${twin.twin}" is said to break ${id}, which is no catalogue ID`);
        continue;
      }
      const selected = input.cases.some((c) => c.requirements.includes(id) && twin.selects(c));
      if (!selected) {
        problems.push(
          `${twin.side} twin "${twin.twin}" is said to break ${id}, but its selection (${twin.selection}) holds no case of it`,
        );
      }
    }
  }
  for (const id of [...Object.keys(input.negatives), ...Object.keys(input.exclusions)]) {
    if (!known.has(id)) problems.push(`the proofs table names ${id}, which is no catalogue ID`);
  }
  return problems;
}
