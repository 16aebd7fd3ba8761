import type { JsonValue } from '../../protocol/json.js';
import type { RequirementLevel } from '../../protocol/requirements.js';
import type { RepeatSummary } from '../repeat/repeat.js';

export type CaseStatus = 'pass' | 'fail' | 'untested' | 'skipped' | 'known-failure';

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
  /** The reason of an untested or skipped case. */
  note?: string;
  evidence?: JsonValue;
  /** Set for a timing case run several times (`--repeat N`). */
  repeat?: RepeatSummary;
}

/** True for the levels whose failure fails the run without `--strict`. */
export function isMandatory(level: RequirementLevel): boolean {
  return level === 'MUST' || level === 'MUST NOT';
}
