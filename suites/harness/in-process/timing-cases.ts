/**
 * In-process timing cases: what only a library caller can set up, on a clock the case moves by
 * hand (hand-clock.ts), so none waits real time. Each rests on failure-semantics.md:
 * - a signal already aborted, or a budget of 0, ends the call before anything is sent
 *   (AHPX-INT-001, AHPX-BUD-006; told apart, AHPX-BUD-003);
 * - a reply read after the deadline or the budget ran out, before its timer fired, is ignored:
 *   the harness rechecks the clock before acceptance (AHP-FAIL-002, AHPX-BUD-006);
 * - the budget runs from the call's start, and its expiry reaches the transport's signal;
 * - a cancellation in a retry backoff, or while the request is handed to the transport, ends
 *   the call at once (AHPX-INT-001); a retry that cannot start inside the deadline is not sent,
 *   and the audit keeps the real failure and attempt count (AHPX-RETRY-002);
 * - a transport that throws is an operational failure under the policy, for an interceptor and
 *   an observer alike (AHP-FAIL-001).
 * A driver cannot be lent a clock or a transport, so for any other target these are `untested`.
 */
import { failOn, type RuleKey } from '../kit/rules.js';
import { conformanceCase, type CaseContext } from '../../common/case.js';
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { Harness, InvokeResult } from '../../../reference-harness/index.js';
import { HandClock, settle } from './hand-clock.js';
import { caseLibrary, type LibraryHarness } from './library-target.js';
import {
  AT_ONCE_MS,
  CONNECTION_LOST,
  entryOf,
  INTERCEPTOR,
  noObjection,
  OBSERVER,
  ScriptedTransport,
  scriptedRegistration,
  settledWithin,
  TOOL_CALL,
  type NotifyScript,
  type RequestScript,
} from './scripted-transport.js';

interface Setup {
  policy: FailurePolicy;
  timeoutMs: number;
  request: (clock: HandClock, cancel: AbortController) => RequestScript;
  notify?: NotifyScript;
  retries?: number;
  retryBackoffMs?: number;
  budgetMs?: number;
  /** The caller's signal is aborted before the call. */
  abortedBefore?: boolean;
}

interface Run {
  clock: HandClock;
  cancel: AbortController;
  transport: ScriptedTransport;
  harness: Harness;
  call: Promise<InvokeResult>;
}

function start(factory: LibraryHarness, setup: Setup): Run {
  const clock = new HandClock();
  const cancel = new AbortController();
  if (setup.abortedBefore === true) cancel.abort(new Error('cancelled by the host before the call'));
  const transport = new ScriptedTransport(setup.request(clock, cancel));
  const observer = new ScriptedTransport(() => Promise.resolve(CONNECTION_LOST), setup.notify);
  const harness = factory({
    registration: scriptedRegistration(setup.policy, setup.timeoutMs, setup.notify !== undefined),
    clock,
    transports: {
      [INTERCEPTOR]: transport,
      ...(setup.notify === undefined ? {} : { [OBSERVER]: observer }),
    },
    retries: setup.retries ?? 0,
    retryBackoffMs: setup.retryBackoffMs ?? 0,
  });
  const call = harness.invoke(TOOL_CALL, {
    signal: cancel.signal,
    ...(setup.budgetMs === undefined ? {} : { budgetMs: setup.budgetMs }),
  });
  return { clock, cancel, transport, harness, call };
}

/** The settled result, or a failure of `rule` when the call had not ended at once. */
async function endsAtOnce(run: Run, rule: RuleKey, what: string): Promise<InvokeResult> {
  const result = await settledWithin(run.call, AT_ONCE_MS);
  if (result === undefined) failOn(rule, [`${what}, but the call had not ended ${AT_ONCE_MS} ms later`]);
  return result as InvokeResult;
}

/** The problems of an interrupted call that should have ended as `ending`. */
function interruptedProblems(result: InvokeResult, ending: 'cancelled' | 'budget-expired'): string[] {
  const problems: string[] = [];
  if (result.decision !== 'deny')
    problems.push(`the call settled "${result.decision}", not an interrupted denial`);
  if (!result.interrupted) problems.push('the call is not reported interrupted');
  return problems.concat(endingProblems(result, ending));
}

function endingProblems(result: InvokeResult, ending: string): string[] {
  return result.ending === ending
    ? []
    : [`the call reports ending "${String(result.ending)}", not "${ending}"`];
}

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** Waits (a few ticks at a time) until `ready` holds; false when it never did. */
async function until(ready: () => boolean): Promise<boolean> {
  for (let i = 0; i < 50 && !ready(); i++) await settle(1);
  return ready();
}

interface TimingCase {
  name: string;
  requirements: string[];
  setup: Setup;
  judge: (run: Run) => Promise<void>;
}

const CASES: TimingCase[] = [
  {
    name: 'AHPX-INT-001/in-process/policy:fail-open/signal-aborted-before-the-call-ends-it-unsent',
    requirements: ['AHPX-INT-001', 'AHPX-BUD-003'],
    setup: {
      policy: 'fail-open',
      timeoutMs: 1000,
      abortedBefore: true,
      request: () => (f) => Promise.resolve(noObjection(f)),
    },
    judge: async (run) => {
      const result = await endsAtOnce(
        run,
        'interrupt.cancel-ends-the-call',
        'the signal was aborted before the call',
      );
      const problems = interruptedProblems(result, 'cancelled');
      if (run.transport.requests.length > 0)
        problems.push('the request was sent for a call cancelled before it began');
      failOn('interrupt.cancel-ends-the-call', problems);
    },
  },
  {
    name: 'AHPX-BUD-006/in-process/policy:fail-open/zero-budget-ends-the-call-unsent',
    requirements: ['AHPX-BUD-006', 'AHPX-BUD-003'],
    setup: {
      policy: 'fail-open',
      timeoutMs: 1000,
      budgetMs: 0,
      request: () => (f) => Promise.resolve(noObjection(f)),
    },
    judge: async (run) => {
      const result = await endsAtOnce(run, 'budget.expiry-ends-the-call', 'the budget was 0');
      const problems = interruptedProblems(result, 'budget-expired');
      if (run.transport.requests.length > 0) problems.push('the request was sent with no budget left');
      failOn('budget.expiry-ends-the-call', problems);
    },
  },
  {
    name: 'AHP-FAIL-002/in-process/policy:fail-closed/reply-read-past-the-deadline-before-its-timer-is-ignored',
    requirements: ['AHP-FAIL-002'],
    setup: {
      policy: 'fail-closed',
      timeoutMs: 100,
      // The reply is read when the clock is past the deadline, but the deadline's timer lags.
      request: (clock) => async (f) => {
        await clock.lag(150);
        return noObjection(f);
      },
    },
    judge: async (run) => {
      const result = await endsAtOnce(run, 'deadline.enforced', 'the reply came past the deadline');
      const problems: string[] = [];
      if (result.decision !== 'deny' || !result.synthetic)
        problems.push(`a reply read 150 ms into a 100 ms deadline was accepted ("${result.decision}")`);
      const entry = entryOf(result, INTERCEPTOR);
      if (entry?.failureClass !== 'deadline-exceeded')
        problems.push(`the audit names "${String(entry?.failureClass)}", not a deadline exceeded`);
      failOn('deadline.enforced', problems);
    },
  },
  {
    name: 'AHPX-BUD-006/in-process/policy:fail-open/reply-read-past-the-budget-before-its-timer-is-ignored',
    requirements: ['AHPX-BUD-006', 'AHPX-BUD-003'],
    setup: {
      policy: 'fail-open',
      timeoutMs: 5000,
      budgetMs: 100,
      request: (clock) => async (f) => {
        await clock.lag(150);
        return noObjection(f);
      },
    },
    judge: async (run) => {
      const result = await endsAtOnce(run, 'budget.expiry-ends-the-call', 'the reply came past the budget');
      failOn('budget.expiry-ends-the-call', interruptedProblems(result, 'budget-expired'));
    },
  },
  {
    name: 'AHPX-BUD-006/in-process/policy:fail-open/budget-runs-from-the-call-start-and-reaches-the-transport',
    requirements: ['AHPX-BUD-006'],
    setup: { policy: 'fail-open', timeoutMs: 5000, budgetMs: 100, request: () => () => never() },
    judge: async (run) => {
      // The clock does not start at 0: a budget timer armed for "deadline + start" never fires here.
      if (!(await until(() => run.transport.requests.length === 1)))
        failOn('budget.expiry-ends-the-call', ['the request never reached the lent transport']);
      await run.clock.advance(100);
      const result = await endsAtOnce(run, 'budget.expiry-ends-the-call', 'the 100 ms budget ran out');
      const problems = interruptedProblems(result, 'budget-expired');
      // The transport looks at its signal only now, after the expiry: it must read as cancelled.
      if (run.transport.contexts[0]?.signal.aborted !== true)
        problems.push("the request's signal does not say it was cancelled after the budget ran out");
      failOn('budget.expiry-ends-the-call', problems);
    },
  },
  {
    name: 'AHPX-INT-001/in-process/policy:fail-open/cancel-during-a-retry-backoff-ends-the-call',
    requirements: ['AHPX-INT-001', 'AHPX-BUD-003'],
    setup: {
      policy: 'fail-open',
      timeoutMs: 1000,
      retries: 1,
      retryBackoffMs: 200,
      request: () => () => Promise.resolve(CONNECTION_LOST),
    },
    judge: async (run) => {
      if (!(await until(() => run.clock.sleeping === 1)))
        failOn('retry.resend', ['the harness never paused before the allowed retry']);
      run.cancel.abort(new Error('cancelled by the host during the backoff'));
      const result = await endsAtOnce(
        run,
        'interrupt.cancel-ends-the-call',
        'the call was cancelled in its backoff',
      );
      const problems = interruptedProblems(result, 'cancelled');
      if (run.transport.requests.length !== 1)
        problems.push(
          `${run.transport.requests.length} requests were sent; the cancellation came before the retry`,
        );
      failOn('interrupt.cancel-ends-the-call', problems);
      const outcome = entryOf(result, INTERCEPTOR)?.outcome;
      if (outcome !== 'interrupted')
        failOn('budget.expiry-told-apart', [
          `the audit records the cancelled delivery as "${String(outcome)}"`,
        ]);
    },
  },
  {
    name: 'AHPX-RETRY-002/in-process/policy:fail-closed/no-retry-when-the-backoff-would-outlast-the-deadline',
    requirements: ['AHPX-RETRY-002', 'AHPX-FAIL-007'],
    setup: {
      policy: 'fail-closed',
      timeoutMs: 100,
      retries: 1,
      retryBackoffMs: 200,
      request: () => () => Promise.resolve(CONNECTION_LOST),
    },
    judge: async (run) => {
      const result = await endsAtOnce(run, 'retry.inside-the-deadline', 'no retry fits in the deadline');
      if (run.transport.requests.length !== 1 || result.decision !== 'deny')
        failOn('retry.inside-the-deadline', [
          `${run.transport.requests.length} requests, decision "${result.decision}"; expected 1 and a synthetic denial`,
        ]);
      const entry = entryOf(result, INTERCEPTOR);
      // The deadline never passed (the clock stood still): the failure is the lost connection.
      if (entry?.failureClass !== 'connection')
        failOn('audit.failure-class', [
          `the audit names "${String(entry?.failureClass)}" for a lost connection`,
        ]);
      if (entry?.attempts !== 1)
        failOn('audit.attempts', [`the audit reports ${String(entry?.attempts)} attempt(s) for 1 request`]);
    },
  },
  {
    name: 'AHPX-RETRY-002/in-process/policy:fail-closed/no-retry-after-a-backoff-that-woke-past-the-deadline',
    requirements: ['AHPX-RETRY-002', 'AHP-CORE-004'],
    setup: {
      policy: 'fail-closed',
      timeoutMs: 100,
      retries: 1,
      retryBackoffMs: 50,
      request: () => () => Promise.resolve(CONNECTION_LOST),
    },
    judge: async (run) => {
      if (!(await until(() => run.clock.sleeping === 1)))
        failOn('retry.resend', ['the harness never paused before the allowed retry']);
      // The backoff wakes late, with the clock at the deadline; the deadline's timer lags.
      await run.clock.lag(100);
      const result = await endsAtOnce(run, 'retry.inside-the-deadline', 'the deadline had passed');
      if (run.transport.requests.length !== 1 || result.decision !== 'deny')
        failOn('retry.inside-the-deadline', [
          `${run.transport.requests.length} requests, decision "${result.decision}"; the retry fell past the deadline`,
        ]);
      const attempts = entryOf(result, INTERCEPTOR)?.attempts;
      if (attempts !== 1)
        failOn('audit.attempts', [`the audit reports ${String(attempts)} attempt(s) for 1 request`]);
    },
  },
  {
    name: 'AHP-FAIL-001/in-process/policy:fail-closed/a-transport-that-throws-is-an-operational-failure',
    requirements: ['AHP-FAIL-001', 'AHPX-FAIL-007'],
    setup: {
      policy: 'fail-closed',
      timeoutMs: 1000,
      request: () => () => Promise.reject(new Error('socket hang up')),
      notify: () => Promise.reject(new Error('socket hang up')),
    },
    judge: async (run) => {
      const ended = await settledWithin(
        run.call.then(
          (result) => ({ result }),
          (error: unknown) => ({ error }),
        ),
        AT_ONCE_MS,
      );
      if (ended === undefined) failOn('failure-policy', ['the transports threw, but the call never ended']);
      if (ended && 'error' in ended)
        failOn('failure-policy', [
          `the call failed instead of settling by the policy: ${String(ended.error)}`,
        ]);
      const settled = (ended as { result: InvokeResult }).result;
      if (settled.decision !== 'deny' || !settled.synthetic)
        failOn('failure-policy', [`a throwing transport under fail-closed settled "${settled.decision}"`]);
      const problems: string[] = [];
      for (const id of [INTERCEPTOR, OBSERVER]) {
        const entry = entryOf(settled, id);
        if (entry?.outcome !== 'operational-failure' || entry.failureClass !== 'connection')
          problems.push(
            `the audit of ${id} records "${String(entry?.outcome)}" / "${String(entry?.failureClass)}" for a transport that lost the delivery`,
          );
      }
      failOn('audit.failure-class', problems);
    },
  },
  {
    name: 'AHPX-INT-001/in-process/policy:fail-open/cancel-while-the-request-is-handed-over-ends-the-call',
    requirements: ['AHPX-INT-001'],
    setup: {
      policy: 'fail-open',
      timeoutMs: 1000,
      // The host cancels as the request is handed over; this transport then never answers.
      request: (_clock, cancel) => () => {
        cancel.abort(new Error('cancelled by the host as the request went out'));
        return never();
      },
    },
    judge: async (run) => {
      const result = await endsAtOnce(run, 'interrupt.cancel-ends-the-call', 'the call was cancelled');
      failOn('interrupt.cancel-ends-the-call', interruptedProblems(result, 'cancelled'));
    },
  },
];

/** Declares the timing cases in the calling suite file. */
export function declareTimingCases(): void {
  for (const c of CASES) {
    conformanceCase({ name: c.name, requirements: c.requirements }, async (ctx: CaseContext) => {
      const run = start(await caseLibrary(ctx), c.setup);
      try {
        await c.judge(run);
      } finally {
        // A call that never ended keeps close waiting: bounded, the case has its verdict already.
        await settledWithin(run.harness.close(), AT_ONCE_MS);
      }
    });
  }
}
