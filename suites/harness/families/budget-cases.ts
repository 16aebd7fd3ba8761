/**
 * The enclosing call budget (AHPX-BUD-*), per transport: a budget shorter than the subscription's
 * deadline ends the call by the budget, retries do not extend it, a shorter subscription deadline
 * still applies inside a longer budget, expiry is told apart from cancellation, an expired or
 * interrupted call is never "continue" (fail-open everywhere, so that "continue" would be the
 * tempting answer), and the cleanup after expiry neither sends the request again nor starts the
 * call's observations. Each transport's cases run in a file of their own (budget*.conformance.ts):
 * the stdio ones spend their budgets in full after process starts, and in one file they made it
 * the run's longest (about 30 s).
 */
import type { Behaviour } from '../../../mock-backend/index.js';
import type { HarnessCase } from '../kit/case-model.js';
import type { HarnessFixture } from '../kit/fixture.js';
import type { HarnessTransport } from '../kit/timing.js';
import { noDeliveryAfterExpiry } from './budget-cleanup.js';
import { deliveredAtMost, settlesWithin } from './deadline-timing.js';
import { scaled } from '../../common/settings.js';

/**
 * The budget of the expiring cases (unscaled): long enough for the request to reach the mock
 * (stdio backends are spawned inside it), far below the deadline the cases configure.
 */
const BUDGET_MS: Readonly<Record<HarnessTransport, number>> = {
  'stdio-persistent': 1500,
  'stdio-per_event': 1500,
  http: 700,
};
/**
 * The deadline of the budget cases (unscaled): well past every budget above (so the budget
 * decides), short enough that a harness ignoring the budget costs the run little.
 */
const DEADLINE_MS = 3000;
/** A budget far above the short deadline, so the deadline decides (unscaled). */
const LONG_BUDGET_MS = 10_000;
/** A persistent backend is spawned inside the first call's deadline: more room than 'short'. */
const PERSISTENT_SHORT_DEADLINE_MS = 1500;
/** Retries of the retry cases, and how long each failing attempt takes (unscaled). */
const RETRIES = 5;
const SLOW_FAILURE_MS = 300;

const expired = {
  decision: 'deny',
  synthetic: true,
  interrupted: true,
  ending: 'budget-expired',
  audit: { outcome: 'budget-expired' },
  wire: 'any',
} as const;

function expected(because: string) {
  return { ...expired, because };
}

/** The budget cases of `transport`, every time scaled by the run's timeout scale. */
export function budgetCases(fixture: HarnessFixture, transport: HarnessTransport): HarnessCase[] {
  const budgetMs = scaled(BUDGET_MS[transport]);
  const deadlineMs = scaled(DEADLINE_MS);
  const slowFailure: Behaviour = {
    kind: 'delay',
    ms: scaled(SLOW_FAILURE_MS),
    then: { kind: 'rpc-error', code: -32603, message: 'temporarily unavailable' },
  };
  const slowFailuresThenSuccess: Behaviour = {
    kind: 'sequence',
    steps: Array.from({ length: RETRIES }, () => slowFailure),
    then: { kind: 'respond', effects: [] },
  };
  const slowFailureThenHang: Behaviour = { kind: 'sequence', steps: [slowFailure], then: { kind: 'hang' } };
  const byBudget = settlesWithin(fixture, 'the budget', () => budgetMs, 'budget.expiry-ends-the-call');
  return [
    {
      name: `AHPX-BUD-006/transport:${transport}/policy:fail-open/budget-shorter-than-the-deadline-ends-the-call`,
      requirements: ['AHPX-BUD-006', 'AHPX-BUD-004'],
      transport,
      policy: 'fail-open',
      deadline: deadlineMs,
      behaviour: { kind: 'hang' },
      invoke: { budgetMs },
      checks: [byBudget],
    },
    {
      name: `AHPX-BUD-001/transport:${transport}/policy:fail-open/retries-do-not-extend-the-budget`,
      requirements: ['AHPX-BUD-001', 'AHPX-BUD-004'],
      transport,
      policy: 'fail-open',
      deadline: deadlineMs,
      retries: RETRIES,
      behaviour: slowFailuresThenSuccess,
      invoke: { budgetMs },
      expect: { ...expected('slow failures are retried until the budget ends the call') },
      checks: [byBudget],
    },
    {
      name: `AHPX-BUD-002/transport:${transport}/policy:fail-open/a-shorter-subscription-deadline-still-applies`,
      requirements: ['AHPX-BUD-002'],
      transport,
      policy: 'fail-open',
      deadline: transport === 'stdio-persistent' ? scaled(PERSISTENT_SHORT_DEADLINE_MS) : 'short',
      behaviour: { kind: 'hang' },
      invoke: { budgetMs: scaled(LONG_BUDGET_MS) },
      // The subscription's deadline, not the longer budget, must end the call.
      expect: { rule: 'budget.shorter-deadline-applies' },
      checks: [
        settlesWithin(
          fixture,
          'the subscription deadline',
          (_run, timeoutMs) => timeoutMs,
          'budget.shorter-deadline-applies',
        ),
      ],
    },
    {
      name: `AHPX-BUD-003/transport:${transport}/policy:fail-open/expiry-is-told-apart-from-cancellation`,
      requirements: ['AHPX-BUD-003'],
      transport,
      policy: 'fail-open',
      deadline: deadlineMs,
      behaviour: { kind: 'hang' },
      invoke: { budgetMs },
      then: [{ behaviour: { kind: 'hang' }, invoke: { cancelAfterMs: budgetMs } }],
      checks: [
        byBudget,
        deliveredAtMost(1, 'an interrupted call is not retried', 'budget.expiry-ends-the-call'),
      ],
    },
    {
      name: `AHPX-BUD-005/transport:${transport}/policy:fail-open/cleanup-after-expiry-sends-and-observes-nothing`,
      requirements: ['AHPX-BUD-005'],
      transport,
      policy: 'fail-open',
      deadline: deadlineMs,
      // An observer and a pending request give cleanup both kinds of work it must not do: one more
      // attempt after the budget, and the observation of a call that never settled. Retries make
      // the extra attempt tempting; per_event has none, as each retry is a process start the budget
      // may cut before the request is read (the wire then lags the audit's attempts). The retry
      // hangs, so a request is pending whenever the budget runs out, however late a loaded machine
      // lets the retry start: after a failure that answers, expiry could fall between attempts,
      // leaving cleanup nothing to resend and the check nothing to see.
      ...(transport === 'stdio-per_event'
        ? { behaviour: { kind: 'hang' as const } }
        : { retries: RETRIES, behaviour: slowFailureThenHang }),
      observe: { behaviour: { kind: 'respond' } },
      invoke: { budgetMs },
      expect: { ...expected('the budget ends the call while its request is pending') },
      checks: [byBudget, noDeliveryAfterExpiry(budgetMs)],
      // A budget that ends the call before its request reached the mock (a process start or a
      // loaded socket outlasted it) leaves cleanup nothing to resend: the attempt runs again.
      needsPendingRequest: 'what the cleanup after expiry delivers',
    },
    {
      // The driver protocol takes any budget >= 0; one of 0 has run out before the call starts, so
      // expiry must end it at once, interrupted, with nothing sent (no new work after expiry). The
      // interceptor was never called, so its audit entry is `skipped`; the call's ending tells why.
      name: `AHPX-BUD-006/transport:${transport}/policy:fail-open/a-zero-budget-ends-the-call-before-delivery`,
      requirements: ['AHPX-BUD-006', 'AHPX-BUD-004'],
      transport,
      policy: 'fail-open',
      deadline: deadlineMs,
      behaviour: { kind: 'respond', effects: [] },
      invoke: { budgetMs: 0 },
      expect: {
        ...expected('a budget of 0 has run out before the call starts'),
        audit: { outcome: 'skipped' },
        wire: 'none',
        deliveryRule: 'budget.expiry-ends-the-call',
      },
    },
  ];
}
