import type { JsonValue } from '../../protocol/json.js';
import type { RequirementLevel } from '../../protocol/requirements.js';
import type { Finding } from '../../suites/common/index.js';
import type { RepeatSummary } from '../repeat/repeat.js';

/** The note of a case `--bail` kept from running: it is reported not run, never passed. */
export const NOT_RUN_AFTER_BAIL = 'not run: --bail stopped the run at the first failed case';

export type CaseStatus = 'pass' | 'fail' | 'untested' | 'blocked' | 'skipped' | 'known-failure';

/** One conformance case as the runner saw it. */
export interface CaseResult {
  name: string;
  /** The suite file it came from, relative to the package root. */
  file: string;
  requirements: string[];
  level: RequirementLevel;
  transports: string[];
  profiles: string[];
  status: CaseStatus;
  durationMs: number;
  /** Failure messages (assertion diffs stripped of colour), empty unless failed. */
  errors: string[];
  /** The reason of an untested, blocked or skipped case. */
  note?: string;
  /**
   * Requirements a passing case gave no evidence for, each with the reason: the case shows
   * `untested` under each of them (its own status and other requirements unchanged).
   */
  untestedRequirements?: Record<string, string>;
  /** What a failing case found, most fundamental first (absent for a failure that is no `CaseFailure`). */
  findings?: Finding[];
  /** What keeps a blocked case from being judged: the finding of the problem it rests on. */
  blockedBy?: Finding;
  evidence?: JsonValue;
  /** Set for a timing case run several times (`--repeat N`). */
  repeat?: RepeatSummary;
  /** The last lines the target wrote on stderr during a failing case (bounded). */
  stderrTail?: string[];
  /** The first frames the mock recorded for a failing case, one line each. */
  frames?: string[];
  /** How many frames the mock recorded for it in all (the evidence holds the transcript). */
  framesTotal?: number;
}

/** True for the levels whose failure fails the run without `--strict`. */
export function isMandatory(level: RequirementLevel): boolean {
  return level === 'MUST' || level === 'MUST NOT';
}
