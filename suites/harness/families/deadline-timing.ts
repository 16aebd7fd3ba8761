/**
 * Timing checks shared by the deadline, budget, retry and shutdown families. Outcomes are judged
 * from decisions, audits and the wire; these checks only catch gross overruns, so every bound is
 * a limit plus the kit's scaled settle tolerance (see kit/timing.ts), never a tight number.
 */
import type { CaseCheck, StepRun } from '../kit/case-model.js';
import type { HarnessFixture } from '../kit/fixture.js';
import { finding, type RuleKey } from '../kit/rules.js';
import { arrivalGapMs } from '../kit/wire-records.js';

/**
 * How far after the original deadline a retry may still arrive at the mock: the harness decides
 * to send before its deadline, but the bytes take a moment (a per_event spawn, a loaded socket) to
 * land. Far below the spacing of the retries the cases provoke, so a late retry still shows.
 */
export const DELIVERY_SLACK_MS = 250;

/**
 * A check that the call was answered within `limitMs(run)` plus the settle tolerance; `rule` is
 * what ends the call by then (the deadline, the cancellation, the budget).
 */
export function settlesWithin(
  fixture: HarnessFixture,
  what: string,
  limitMs: (run: StepRun, timeoutMs: number) => number,
  rule: RuleKey,
): CaseCheck {
  return {
    name: `settles by ${what}`,
    run(run, context) {
      const limit = limitMs(run, context.timeoutMs);
      const bound = limit + fixture.state.margins.settleToleranceMs;
      if (run.elapsedMs <= bound) return [];
      return [
        finding(
          rule,
          `the call settled after ${Math.round(run.elapsedMs)} ms, past ${what} (${Math.round(limit)} ms) plus the tolerance (${bound} ms in all)`,
        ),
      ];
    },
  };
}

/** A check that the call settled by its deadline (`deadline.enforced`). */
export function settlesByTheDeadline(fixture: HarnessFixture): CaseCheck {
  return settlesWithin(fixture, 'the deadline', (_run, timeoutMs) => timeoutMs, 'deadline.enforced');
}

/** A check that every delivery of the call reached the mock while the original deadline ran. */
export function deliveriesWithinDeadline(fixture: HarnessFixture): CaseCheck {
  return {
    name: 'every delivery inside the original deadline',
    run(run, context) {
      const [first, ...rest] = run.records.requests;
      if (!first) return [];
      const slack = DELIVERY_SLACK_MS * fixture.state.settings.timeoutScale;
      return rest
        .filter((r) => arrivalGapMs(first, r) > context.timeoutMs + slack)
        .map((r) =>
          finding(
            'retry.inside-the-deadline',
            `delivery ${r.delivery} arrived ${Math.round(arrivalGapMs(first, r))} ms after the first, past the original deadline of ${context.timeoutMs} ms`,
          ),
        );
    },
  };
}

/** A check that the mock received exactly `count` intercept requests for the call, as `rule` has it. */
export function deliveredTimes(count: number, why: string, rule: RuleKey): CaseCheck {
  return {
    name: `delivered ${count} time(s)`,
    run(run) {
      const n = run.records.requests.length;
      return n === count
        ? []
        : [finding(rule, `the mock received ${n} request(s) for this call, but ${why}`)];
    },
  };
}

/** A check that the mock received at most `count` intercept requests for the call, as `rule` has it. */
export function deliveredAtMost(count: number, why: string, rule: RuleKey): CaseCheck {
  return {
    name: `delivered at most ${count} time(s)`,
    run(run) {
      const n = run.records.requests.length;
      return n <= count ? [] : [finding(rule, `the mock received ${n} request(s) for this call, but ${why}`)];
    },
  };
}
