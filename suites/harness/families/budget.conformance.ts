/**
 * The enclosing call budget (AHPX-BUD-*): a budget shorter than the subscription's deadline ends
 * the call by the budget, retries do not extend it, a shorter subscription deadline still applies
 * inside a longer budget, expiry is told apart from cancellation, an expired or interrupted call is
 * never "continue" (fail-open everywhere, so that "continue" would be the tempting answer), and the
 * cleanup after expiry neither sends the request again nor starts the call's observations.
 */
import { inject } from 'vitest';
import type { Behaviour } from '../../../mock-backend/index.js';
import type { HarnessCase } from '../kit/case-model.js';
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { DEFAULT_SETTINGS, SETTINGS_KEY } from '../kit/provided.js';
import { HARNESS_TRANSPORTS, type HarnessTransport } from '../kit/timing.js';
import { noDeliveryAfterExpiry } from './budget-cleanup.js';
import { deliveredAtMost, settlesWithin } from './deadline-timing.js';

const fixture = useHarnessFixture();
const scale = (inject(SETTINGS_KEY) ?? DEFAULT_SETTINGS).timeoutScale;

/**
 * The budget of the expiring cases: long enough for the request to reach the mock (stdio backends
 * are spawned inside it), far below the deadline the cases configure.
 */
const BUDGET_MS: Readonly<Record<HarnessTransport, number>> = {
  'stdio-persistent': Math.round(1500 * scale),
  'stdio-per_event': Math.round(1500 * scale),
  http: Math.round(700 * scale),
};
/**
 * The deadline of the budget cases: well past every budget above (so the budget decides), short
 * enough that a harness ignoring the budget costs the run little.
 */
const DEADLINE_MS = Math.round(3000 * scale);
/** A budget far above the short deadline, so the deadline decides. */
const LONG_BUDGET_MS = Math.round(10_000 * scale);
/** Retries of the retry case, and how long each failing attempt takes. */
const RETRIES = 5;
const SLOW_FAILURE_MS = Math.round(300 * scale);
const SLOW_FAILURE: Behaviour = {
  kind: 'delay',
  ms: SLOW_FAILURE_MS,
  then: { kind: 'rpc-error', code: -32603, message: 'temporarily unavailable' },
};

const expired = {
  decision: 'deny',
  synthetic: true,
  interrupted: true,
  ending: 'budget-expired',
  audit: { outcome: 'budget-expired' },
  wire: 'any',
} as const;

const cases: HarnessCase[] = [];
for (const transport of HARNESS_TRANSPORTS) {
  const budgetMs = BUDGET_MS[transport];
  const byBudget = settlesWithin(fixture, 'the budget', () => budgetMs);
  cases.push({
    name: `AHPX-BUD-006/transport:${transport}/policy:fail-open/budget-shorter-than-the-deadline-ends-the-call`,
    requirements: ['AHPX-BUD-006', 'AHPX-BUD-004'],
    transport,
    policy: 'fail-open',
    deadline: DEADLINE_MS,
    behaviour: { kind: 'hang' },
    invoke: { budgetMs },
    checks: [byBudget],
  });
  cases.push({
    name: `AHPX-BUD-001/transport:${transport}/policy:fail-open/retries-do-not-extend-the-budget`,
    requirements: ['AHPX-BUD-001', 'AHPX-BUD-004'],
    transport,
    policy: 'fail-open',
    deadline: DEADLINE_MS,
    retries: RETRIES,
    behaviour: {
      kind: 'sequence',
      steps: Array.from({ length: RETRIES }, () => SLOW_FAILURE),
      then: { kind: 'respond', effects: [] },
    },
    invoke: { budgetMs },
    expect: { ...expected('slow failures are retried until the budget ends the call') },
    checks: [byBudget],
  });
  cases.push({
    name: `AHPX-BUD-002/transport:${transport}/policy:fail-open/a-shorter-subscription-deadline-still-applies`,
    requirements: ['AHPX-BUD-002'],
    transport,
    policy: 'fail-open',
    // A persistent backend is spawned inside the first call's deadline: more room than 'short'.
    deadline: transport === 'stdio-persistent' ? Math.round(1500 * scale) : 'short',
    behaviour: { kind: 'hang' },
    invoke: { budgetMs: LONG_BUDGET_MS },
    checks: [settlesWithin(fixture, 'the subscription deadline', (_run, timeoutMs) => timeoutMs)],
  });
  cases.push({
    name: `AHPX-BUD-003/transport:${transport}/policy:fail-open/expiry-is-told-apart-from-cancellation`,
    requirements: ['AHPX-BUD-003'],
    transport,
    policy: 'fail-open',
    deadline: DEADLINE_MS,
    behaviour: { kind: 'hang' },
    invoke: { budgetMs },
    then: [{ behaviour: { kind: 'hang' }, invoke: { cancelAfterMs: budgetMs } }],
    checks: [byBudget, deliveredAtMost(1, 'an interrupted call is not retried')],
  });
  cases.push({
    name: `AHPX-BUD-005/transport:${transport}/policy:fail-open/cleanup-after-expiry-sends-and-observes-nothing`,
    requirements: ['AHPX-BUD-005'],
    transport,
    policy: 'fail-open',
    deadline: DEADLINE_MS,
    // An observer and a pending request give cleanup both kinds of work it must not do: one more
    // attempt after the budget, and the observation of a call that never settled. Retries make
    // the extra attempt tempting; per_event has none, as each retry is a process start the budget
    // may cut before the request is read (the wire then lags the audit's attempts).
    ...(transport === 'stdio-per_event'
      ? { behaviour: { kind: 'hang' as const } }
      : {
          retries: RETRIES,
          behaviour: {
            kind: 'sequence' as const,
            steps: Array.from({ length: RETRIES }, () => SLOW_FAILURE),
            then: { kind: 'respond' as const, effects: [] },
          },
        }),
    observe: { behaviour: { kind: 'respond' } },
    invoke: { budgetMs },
    expect: { ...expected('the budget ends the call while its request is pending') },
    checks: [byBudget, noDeliveryAfterExpiry(fixture, budgetMs)],
  });
}

function expected(because: string) {
  return { ...expired, because };
}

harnessCases(fixture, cases);
