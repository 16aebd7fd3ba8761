/**
 * What a check found, as data: the rule it breaks, the sentence that rule rests on, and this
 * occurrence's specifics. Both suites (harness and backend) report findings in this one shape, so
 * that a report can group them into problems: findings with the same `rule` and `way` are one
 * problem however many cases they appear in. Pure.
 */
import type { RequirementLevel } from '../../protocol/requirements.js';

/** Where a rule is written, how strong it is, and what it says (in our words). */
export interface Basis {
  /** The document of the published draft (or the JSON-RPC 2.0 specification). */
  document: string;
  /** The anchor or section inside it. */
  anchor: string;
  level: RequirementLevel;
  /** Our paraphrase of the sentence; the anchor points at the original. */
  rule: string;
}

/**
 * How fundamental a finding is: a problem of a lower rank can explain the findings of a higher
 * one (a frame that cannot be read explains a decision that went wrong), never the reverse.
 * Reports list problems lowest rank first.
 */
export const FINDING_RANK = {
  /** Bytes, framing, JSON-RPC envelope: nothing above can be read without them. */
  framing: 0,
  /** The event's shape and identities: what a backend needs to recognise the call. */
  envelope: 1,
  /** Configuration: a registration accepted or refused. */
  configuration: 2,
  /** The decision: what the harness settled, or what the backend answered. */
  decision: 3,
  /** What the target reports about itself: audit entries, claims, diagnostics. */
  report: 4,
} as const;

export type FindingRank = (typeof FINDING_RANK)[keyof typeof FINDING_RANK];

/** One thing a check found wrong. */
export interface Finding {
  /**
   * The stable key of the rule broken (`stdio.framing`, `tool-before.call-id`): with `way`, what
   * groups findings into one problem. Never carries ids, numbers or other per-occurrence values.
   */
  rule: string;
  /** How the rule is broken, when a rule can be broken in distinct ways (stable, like `rule`). */
  way?: string;
  /** The requirement ID the rule belongs to (not necessarily the case's own). */
  requirement: string;
  /** The level the finding is judged at: its basis's. */
  level: RequirementLevel;
  basis: Basis;
  rank: FindingRank;
  /** One line that holds for every occurrence: what is wrong, for the problems list. */
  summary: string;
  /** This occurrence, with its specifics (ids, delivery numbers, values). */
  message: string;
}

/** The key findings are grouped by: the same rule broken the same way. */
export function findingKey(f: Pick<Finding, 'rule' | 'way'>): string {
  return f.way === undefined ? f.rule : `${f.rule}#${f.way}`;
}

/** Findings ordered most fundamental first (stable for equal ranks). */
export function byRank<T extends Pick<Finding, 'rank'>>(findings: readonly T[]): T[] {
  return findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => a.f.rank - b.f.rank || a.i - b.i)
    .map(({ f }) => f);
}

/** A case failure carrying every finding, one per line of its message. */
export class CaseFailure extends Error {
  readonly findings: Finding[];
  constructor(findings: readonly Finding[]) {
    const ordered = byRank(findings);
    super(ordered.map((f) => `- ${f.message}`).join('\n'));
    this.name = 'CaseFailure';
    this.findings = ordered;
  }
  /** The messages, in order (what the case's error lists). */
  get problems(): string[] {
    return this.findings.map((f) => f.message);
  }
}
