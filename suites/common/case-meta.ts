import type { RequirementLevel } from '../../protocol/requirements.js';
import type { JsonValue } from '../../protocol/json.js';
import type { Finding } from './finding.js';

/** What every conformance case declares about itself; read back by the CLI's runner through vitest's task meta. */
export interface CaseMeta {
  /** Requirement IDs the case asserts; the first one prefixes the case name. */
  requirements: string[];
  level: RequirementLevel;
  /** Transport bindings the case exercises (`stdio-persistent`, `stdio-per_event`, `http`, `none`). */
  transports: string[];
  /** Profiles the case belongs to (from the catalogue unless given). */
  profiles: string[];
  /** The mock behaviours the case uses, by kind (harness cases whose data names them). */
  behaviours?: string[];
  /** Evidence for the report: frames exchanged, the driver's answer, what the mock recorded. */
  evidence?: JsonValue;
  /** Set when the target cannot show what the case needs: the case is `untested`, never `pass`. */
  untested?: string;
  /**
   * Requirements of a passing case that its target gave no evidence for (the fields their checks
   * read were not reported), each with the reason: the case counts as `untested` for each of them,
   * never `pass`, while its own status and its other requirements stay as they are.
   */
  untestedRequirements?: Record<string, string>;
  /**
   * Set when the target stopped being usable during the case (its driver exited or stopped
   * answering): the case is not judged, and the run stops with exit code 3.
   */
  targetStopped?: TargetStopped;
  /** What people read under a failing case: the target's stderr and the wire (bounded). */
  diagnostics?: CaseDiagnostics;
  /** Set when the case failed through a `CaseFailure`: what it found, most fundamental first. */
  findings?: Finding[];
  /**
   * Set when the case could not be judged because something it rests on is broken: the finding
   * that shows it. The case is `blocked`, never `pass`, and not a failure of its own requirement.
   */
  blocked?: Finding;
}

/** Why a run stopped: one sentence naming the command and the fix, and the target's stderr. */
export interface TargetStopped {
  message: string;
  /** The last lines the target wrote on stderr (bounded). */
  stderrTail: string[];
}

/** Evidence shown with a failing case, each part bounded. */
export interface CaseDiagnostics {
  /** The last lines the driver wrote on stderr during the case. */
  stderrTail?: string[];
  /** The frames the mock recorded for the case, one line each (the first ones). */
  frames?: string[];
  /** How many frames the mock recorded in all (the report's evidence holds every one). */
  framesTotal?: number;
}

/** Lines of a target's stderr kept with a failing case or a stopped run. */
export const STDERR_TAIL_LINES = 20;

/** The last `STDERR_TAIL_LINES` non-empty lines of `text`. */
export function stderrTail(text: string): string[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  return lines.slice(-STDERR_TAIL_LINES);
}

/** The prefix of a skip note that marks a case not judged because the target stopped. */
export const TARGET_STOPPED_PREFIX = 'not judged: ';

/**
 * How many concurrent cases of one file run at once (vitest's `maxConcurrency` in conformance
 * runs). Harness files that declare their cases concurrent get up to this many lanes (a driver and
 * mocks each); on a 2-core machine with several files in parallel, more would crowd the deadlines.
 */
export const MAX_CONCURRENT_CASES = 3;

/** Values the CLI passes to the suites through vitest's `provide`. */
export interface SuiteSettings {
  /**
   * Multiplies every real-time wait and tolerance: `--timeout-scale`, raised by the CLI to the
   * machine's measured slowness (cli/runner/machine-scale.ts).
   */
  timeoutScale: number;
  /**
   * Multiplies the margins that catch a small stretch of a deadline (suites/harness/kit/timing.ts):
   * `--timeout-scale` alone, so that a loaded machine never hides such a stretch. Absent: `timeoutScale`.
   */
  precisionScale?: number;
  /** fast-check seed: printed and replayable. */
  seed: number;
  /** fast-check runs per property. */
  runs: number;
  protocolVersion: 'draft';
}

declare module 'vitest' {
  interface TaskMeta {
    ahp?: CaseMeta;
  }
}

/** The prefix of a skip note that marks a case blocked by an earlier problem. */
export const BLOCKED_PREFIX = 'blocked: ';

/** The prefix of a skip note that marks a case untested rather than skipped. */
export const UNTESTED_PREFIX = 'untested: ';
