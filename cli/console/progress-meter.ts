/**
 * How far a run is, as numbers and one line of text: cases done of the total (exact once known,
 * else an estimate), failures so far, the time spent and an estimate of the time left. Pure: the
 * console progress feeds it results and the time, and prints what it says.
 */
import { isMandatory, type CaseResult } from '../runner/case-result.js';
import { noun } from '../report/count.js';

/** Before this share of the expected work is done, time left is not estimated (too noisy). */
const ETA_MIN_FRACTION = 0.02;
/** Nor in the first seconds of a run, when worker starts dominate. */
const ETA_MIN_ELAPSED_MS = 3_000;

/** m:ss, or h:mm:ss past an hour. */
export function clockTime(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** True for a result that counts as a finished case: not one a selection filtered out. */
export function countsAsDone(result: Pick<CaseResult, 'status' | 'note'>): boolean {
  return result.status !== 'skipped' || result.note !== undefined;
}

/** The progress of one run (the main run, or one extra run of `--repeat`). */
export class ProgressMeter {
  private done = 0;
  private failed = 0;
  private doneWeight = 0;
  private total: number | undefined;
  private exact = false;
  private totalWeight: number | undefined;
  private last: string | undefined;
  private floor = 0;
  private readonly fallbackWeight: number;

  /**
   * `weights`: expected duration per case name (the shipped recordings), for time left; without
   * them every case weighs the same. `started`: when the run started, on the `now` the caller uses.
   */
  constructor(
    private readonly started: number,
    private readonly weights: ReadonlyMap<string, number> = new Map(),
  ) {
    const known = [...weights.values()].sort((a, b) => a - b);
    this.fallbackWeight = known.length > 0 ? (known[Math.floor(known.length / 2)] as number) : 1;
  }

  private weight(name: string): number {
    return this.weights.get(name) ?? this.fallbackWeight;
  }

  /** The cases the run will judge, when known before it starts (a selection, a shard). */
  plan(names: readonly string[]): void {
    this.total = names.length;
    this.exact = true;
    this.totalWeight = names.reduce((sum, n) => sum + this.weight(n), 0);
  }

  /** An estimate of the total when no plan is known (the recorded suite's size), a floor for projections. */
  estimate(cases: number): void {
    if (this.exact) return;
    this.floor = cases;
    this.total = cases;
  }

  /**
   * Files are being collected (`collected` of `files`, declaring `cases` so far): once all are,
   * the total is exact; before, it is what they declare plus as much again per file to come, and
   * at least the estimate.
   */
  collecting(files: number, collected: number, cases: number): void {
    if (this.exact || collected <= 0) return;
    if (collected >= files) {
      this.exact = true;
      this.total = cases;
      return;
    }
    const projected = cases + Math.round((cases / collected) * (files - collected));
    // The first files collected are the longest, not the largest: a projection from them runs low.
    this.total = Math.max(this.floor, projected);
  }

  /** A finished case; returns true when it failed (a MUST or SHOULD failure). */
  record(result: CaseResult): boolean {
    if (!countsAsDone(result)) return false;
    this.done += 1;
    this.doneWeight += this.weight(result.name);
    this.last = result.name;
    const failed = result.status === 'fail';
    if (failed && isMandatory(result.level)) this.failed += 1;
    return failed;
  }

  get finished(): number {
    return this.done;
  }

  /** The share of the cases done, 0..1, when a total is known. */
  share(): number | undefined {
    if (this.total === undefined || this.total <= 0) return undefined;
    return Math.min(1, this.done / Math.max(this.total, this.done));
  }

  /**
   * The share of the expected work done, 0..1: by the recorded time of each case when the run's
   * cases are known by name (a plan), else by count.
   */
  fraction(): number | undefined {
    if (this.totalWeight === undefined || this.totalWeight <= 0) return this.share();
    return Math.min(1, this.doneWeight / this.totalWeight);
  }

  /** Milliseconds left, estimated from the pace so far; undefined while too early to say. */
  timeLeftMs(now: number): number | undefined {
    const f = this.fraction();
    const elapsed = now - this.started;
    if (f === undefined || f < ETA_MIN_FRACTION || elapsed < ETA_MIN_ELAPSED_MS) return undefined;
    return (elapsed * (1 - f)) / f;
  }

  /** "120/351 cases (34%), 2 failed, 0:41 elapsed, about 1:10 left". */
  status(now: number): string {
    const total = this.total === undefined ? undefined : Math.max(this.total, this.done);
    const of = total === undefined ? '' : `/${this.exact ? '' : '~'}${total}`;
    const share = this.share();
    const percent = share === undefined ? '' : ` (${Math.floor(share * 100)}%)`;
    const left = this.timeLeftMs(now);
    return [
      `${this.done}${of} ${noun(total ?? this.done, 'case')}${percent}`,
      `${this.failed} failed`,
      `${clockTime(now - this.started)} elapsed`,
      left === undefined ? 'estimating time left' : `about ${clockTime(left)} left`,
    ].join(', ');
  }

  /** The case that finished last, for the live line. */
  get lastCase(): string | undefined {
    return this.last;
  }
}
