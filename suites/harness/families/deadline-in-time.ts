/**
 * AHP-FAIL-002 over a backend that answers late but in time: the mock holds a valid reply past the
 * timeouts HTTP and process clients commonly set by default (5 s, 10 s), yet inside `timeoutMs`,
 * and the harness must apply it. A harness whose transport has a shorter timeout of its own gives
 * up first and is told so (kit/gave-up-early.ts). Every other deadline case replies at once or
 * after the deadline, so none of them would notice such a timeout. Built per transport, so the
 * HTTP and the stdio cases run in files of their own, in parallel.
 */
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { Provoked } from '../kit/classify.js';
import type { Behaviour } from '../../../mock-backend/index.js';
import type { HarnessCase } from '../kit/case-model.js';
import type { HarnessTransport } from '../kit/timing.js';
import { scaled } from '../../common/settings.js';

/**
 * Client timeouts common as defaults, in ms. Absolute: a client's default does not grow with a
 * loaded machine, so the mock's hold is never scaled.
 */
export const CLIENT_DEFAULT_TIMEOUTS_MS = [5000, 10_000] as const;

/**
 * How long past a client default the mock holds its reply, counted from the request's arrival (a
 * harness's own timer started before that): a client that gives up at its default has given up
 * this long before the reply leaves. Absolute, like the defaults.
 */
export const PAST_DEFAULT_BY_MS = 1000;

/**
 * The room between the reply leaving the mock and the deadline, before scaling: a process start,
 * a connection and a loaded machine all spend the harness's deadline before the request even
 * arrives, and none of that may turn a reply in time into a deadline failure.
 */
export const IN_TIME_MARGIN_MS = 6000;

/**
 * The largest `timeoutMs` a harness SHOULD support (failure.md, "Deadlines": 100 ms through
 * 30,000 ms). A scaled margin on a loaded machine would pass it; the deadline stops there instead,
 * so these cases never ask for a value a conforming harness may refuse. The room left is still
 * more than twice the unscaled margin.
 */
export const MAX_SUPPORTED_TIMEOUT_MS = 30_000;

/** How long each case may run before vitest stops it, before scaling: a full deadline and then some. */
const CASE_TIMEOUT_MS = MAX_SUPPORTED_TIMEOUT_MS + 15_000;

/**
 * What the reply must do under each policy so that applying it shows in the decision: under
 * fail-open a deny (giving up continues), under fail-closed an empty list (giving up denies).
 */
function proof(policy: FailurePolicy, held: string): { behaviour: Behaviour; means: Provoked } {
  const rule = 'deadline.full-length' as const;
  if (policy === 'fail-open') {
    const reason = `deny held ${held}`;
    return {
      behaviour: { kind: 'deny', reason },
      means: { kind: 'deny', reason, because: `a valid explicit deny inside the deadline`, rule },
    };
  }
  return {
    behaviour: { kind: 'respond', effects: [] },
    means: { kind: 'answer', because: 'a valid empty effect list inside the deadline', rule },
  };
}

/** The `timeoutMs` of a case whose reply is held `heldMs`: the scaled margin later, capped. */
export function inTimeDeadlineMs(heldMs: number, margin: number = scaled(IN_TIME_MARGIN_MS)): number {
  return Math.min(heldMs + margin, MAX_SUPPORTED_TIMEOUT_MS);
}

/**
 * The late-but-in-time cases of `transport`: one per client default, under fail-open (a deny
 * past 5 s) and fail-closed (an empty list past 10 s), so that each policy's proof is met once
 * and a timeout at either default shows.
 */
export function inTimeCases(transport: HarnessTransport): HarnessCase[] {
  const policies: FailurePolicy[] = ['fail-open', 'fail-closed'];
  return CLIENT_DEFAULT_TIMEOUTS_MS.map((defaultMs, i) => {
    const policy = policies[i % policies.length] as FailurePolicy;
    const heldMs = defaultMs + PAST_DEFAULT_BY_MS;
    const { behaviour, means } = proof(policy, `${heldMs} ms`);
    return {
      name: `AHP-FAIL-002/transport:${transport}/policy:${policy}/reply-past-${defaultMs / 1000}s-inside-the-deadline-is-applied`,
      requirements: ['AHP-FAIL-002'],
      transport,
      policy,
      behaviour: { kind: 'delay', ms: heldMs, then: behaviour },
      means,
      deadline: inTimeDeadlineMs(heldMs),
      timeoutMs: CASE_TIMEOUT_MS,
    };
  });
}
