/**
 * A call whose chain settled but which then ended while it still owned its observations: the
 * interceptor answers `[]` at once, the observer on the same mock never answers, and the call's
 * enclosing budget (AHPX-BUD-004) or the host's cancellation (AHPX-INT-001) ends it while that
 * observation runs. Owned observations draw on the call's budget and the host has no answer yet,
 * so the call ends interrupted, a synthetic deny: the settled "continue" of the chain is never
 * permission once the call itself was interrupted. Fail-open everywhere, as in the budget cases,
 * so that "continue" is the tempting answer. HTTP only: a stdio notification has no answer to wait
 * for, so only an HTTP observer that never answers its POST keeps the observation running; the
 * rule does not depend on the transport.
 */
import type { DriverAuditOutcome, InvokeResult } from '../../driver/index.js';
import type { CaseCheck, HarnessCase } from '../kit/case-model.js';
import { interceptEntries } from '../kit/judge.js';
import { OBSERVER_BACKEND_ID } from '../kit/registration.js';
import { finding, type RuleKey } from '../kit/rules.js';
import { scaled } from '../../common/settings.js';

/**
 * When the call ends (unscaled), from the suite's start of the call: far beyond an HTTP `[]`
 * answered at once, so the chain has settled and the observation is running, and well before the
 * reference harness bounds an observation (1000 ms after settlement, reference-harness/observers.ts),
 * so that it is the budget or the cancellation that ends the call.
 */
const ENDS_AFTER_MS = 500;
/**
 * The latest the call may end however far the run's timeout scale stretches ENDS_AFTER_MS: the
 * scale grows with a busy machine (the runner raises it itself), and past one second a harness
 * that bounds its observations as the reference does settles first, so a loaded run would leave
 * the case `untested` (see ownedRaceLost) for the reference too. Only the interceptor's answer
 * must beat this on a slow machine; the two timers that decide the case, the call's and the
 * observation's bound, fire in their order under any load.
 */
const ENDS_BY_MS = 800;
/**
 * How much later than the interruption the suite may see the answer of a call that settled on
 * its own just before it: the driver's round trip over stdio, which the harness's clock does not
 * count (unscaled). It also lets a harness whose audit says its observation ended on its own,
 * but which answered less than this after the interruption, go untested rather than failed: the
 * suite cannot tell the two apart by its clock alone.
 */
const ANSWER_SLACK_MS = 100;

/** Audit outcomes of a delivery that the call's ending cut short. */
const CUT_SHORT: ReadonlySet<DriverAuditOutcome> = new Set(['budget-expired', 'interrupted']);

/**
 * Why the call's answer shows nothing about a call that still owned its observation when it
 * ended, or undefined when it does. Two races leave a conforming harness free to answer
 * otherwise, and the case is then `untested`:
 * - its own bound on observations is shorter than the case's timing (how long a harness lets an
 *   observation hold the call is its own choice; the seed only lets delivery delay the call), so
 *   the observation ended, and the call settled as the chain did, before the interruption: the
 *   answer is not interrupted, the observer's audit entry (when reported) says the observation
 *   ended on its own, and the answer came no later than the interruption plus `slackMs` (the
 *   driver's round trip, which the harness's clock does not count). Without that escape no
 *   timing would do: a harness may bound observations at 1 ms;
 * - a loaded machine held the interceptor's answer until after the interruption, so the call
 *   ended inside its chain (an interrupted deny whose intercept entry was cut short), which the
 *   budget and cancellation cases judge.
 * A harness that reports its observation cut short but the call not interrupted is judged: that
 * is the defect. Pure.
 */
export function ownedRaceLost(
  what: string,
  result: InvokeResult,
  backendId: string,
  timing: { elapsedMs: number; endsAfterMs: number; slackMs: number },
): string | undefined {
  const intercept = interceptEntries(result, backendId)[0];
  if (
    result.interrupted &&
    result.decision === 'deny' &&
    intercept !== undefined &&
    CUT_SHORT.has(intercept.outcome)
  ) {
    return `the ${what} came before the interceptor's answer was taken, so the call ended in its chain, not in its observation`;
  }
  const observer = result.audit.find((a) => a.backendId === OBSERVER_BACKEND_ID);
  const endedOnItsOwn = observer === undefined || !CUT_SHORT.has(observer.outcome);
  if (!result.interrupted && endedOnItsOwn && timing.elapsedMs < timing.endsAfterMs + timing.slackMs) {
    return `the harness ended its observation on its own before the ${what} (the call settled after ${Math.round(timing.elapsedMs)} ms): its bound on owned observations is shorter than the case's ${timing.endsAfterMs} ms`;
  }
  return undefined;
}

/**
 * The check of both cases: `untested` on a race the case cannot judge (ownedRaceLost), which ends
 * the case before the answer's findings count; else a driver that reports the operation executed
 * (features.execution) breaks `rule`: the host ran it on an answer it never had.
 */
function ownedWhenItEnded(what: string, endsAfterMs: number, rule: RuleKey): CaseCheck {
  return {
    name: `the call still owned its observation at the ${what}`,
    run(run, context) {
      const timing = { elapsedMs: run.elapsedMs, endsAfterMs, slackMs: scaled(ANSWER_SLACK_MS) };
      const lost = ownedRaceLost(what, run.result, context.backendId, timing);
      if (lost !== undefined) return context.untested(lost);
      if (run.result.executed !== true) return [];
      return [
        finding(
          rule,
          `the operation is reported executed although the ${what} ended the call before the host had its answer`,
        ),
      ];
    },
  };
}

/** When the call ends, scaled by the run's timeout scale up to ENDS_BY_MS. */
function endsAfterMs(): number {
  return Math.min(scaled(ENDS_AFTER_MS), ENDS_BY_MS);
}

/** What the call must come to, however it ended. */
const interruptedDeny = { decision: 'deny', synthetic: true, interrupted: true, wire: 'delivered' } as const;

/** The budget case: the enclosing budget runs out while the call's observation runs. */
export function ownedObservationBudgetCases(): HarnessCase[] {
  const budgetMs = endsAfterMs();
  return [
    {
      name: 'AHPX-BUD-004/transport:http/policy:fail-open/budget-ends-the-call-during-its-observation',
      requirements: ['AHPX-BUD-004'],
      transport: 'http',
      policy: 'fail-open',
      behaviour: { kind: 'respond' },
      observe: { behaviour: { kind: 'hang' } },
      invoke: { budgetMs },
      expect: {
        ...interruptedDeny,
        ending: 'budget-expired',
        // The interceptor answered before the budget ran out, so its entry stays an answer.
        audit: { outcome: 'no-effect' },
        because:
          'the budget runs out while the call owns its observation, after the chain settled on "continue"',
        // A "continue" here represents interrupted work as permission (the budget's own case
        // judges ending by expiry while a request is pending).
        rule: 'interrupt.never-permission',
      },
      checks: [ownedWhenItEnded('budget expiry', budgetMs, 'interrupt.never-permission')],
    },
  ];
}

/** The cancellation case: the host cancels the call while its observation runs. */
export function ownedObservationCancelCases(): HarnessCase[] {
  const cancelAfterMs = endsAfterMs();
  return [
    {
      name: 'AHPX-INT-001/transport:http/policy:fail-open/cancel-during-its-observation-overrides-the-approval',
      requirements: ['AHPX-INT-001'],
      transport: 'http',
      policy: 'fail-open',
      behaviour: { kind: 'respond' },
      observe: { behaviour: { kind: 'hang' } },
      invoke: { cancelAfterMs },
      expect: {
        ...interruptedDeny,
        ending: 'cancelled',
        audit: { outcome: 'no-effect' },
        because: 'the call is cancelled while it owns its observation, after the chain accepted "continue"',
      },
      checks: [ownedWhenItEnded('cancellation', cancelAfterMs, 'interrupt.cancel-ends-the-call')],
    },
  ];
}
