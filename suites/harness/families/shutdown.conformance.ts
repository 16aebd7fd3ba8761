/**
 * Shutdown (AHPX-SHUT-*): after `close` no backend process the harness spawned is alive, a
 * SIGTERM-ignoring one included, within a bound; a second `close` is safe; `invoke` after `close`
 * fails locally and reaches no backend; `close` during a pending call ends it without permission.
 */
import type { CaseContext } from '../../common/case.js';
import { DriverCallError } from '../../driver/index.js';
import { CaseFailure } from '../../common/finding.js';
import { failOn, finding } from '../kit/rules.js';
import { driverCase } from '../kit/define.js';
import { closeHarness } from '../kit/lane-driver.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { HARNESS_TRANSPORTS, type HarnessTransport } from '../kit/timing.js';
import {
  awaitRequest,
  callSteps,
  configureBackend,
  loadScenario,
  nextEvent,
  REAP_GRACE_MS,
  requestsOf,
  SHUTDOWN_BOUND_MS,
  stillRunningAfter,
} from './shutdown-support.js';
import { scaled } from '../../common/settings.js';

const fixture = useHarnessFixture();
const STDIO: readonly HarnessTransport[] = ['stdio-persistent', 'stdio-per_event'];

function define(
  name: string,
  requirements: string[],
  transport: HarnessTransport,
  body: (ctx: CaseContext) => Promise<void>,
): void {
  driverCase(
    fixture,
    { name, requirements, transports: [transport], timeoutMs: 30_000 },
    { transport, features: ['close'] },
    body,
  );
}

/** Closes the harness and returns how long the driver took to say it was done. */
async function timedClose(): Promise<number> {
  const started = performance.now();
  await closeHarness(fixture.state);
  return performance.now() - started;
}

for (const transport of STDIO) {
  define(
    `AHPX-SHUT-002/transport:${transport}/close-reaps-every-backend-process-even-one-ignoring-sigterm`,
    ['AHPX-SHUT-002'],
    transport,
    async (ctx) => {
      const state = fixture.state;
      const bound = scaled(SHUTDOWN_BOUND_MS);
      // The per_event backend is caught mid-call (it would exit by itself after a reply).
      const behaviour =
        transport === 'stdio-per_event' ? { kind: 'hang' as const } : { kind: 'respond' as const };
      loadScenario(state, transport, { rules: [{ behaviour }], process: { ignoreSigterm: true } });
      await configureBackend(state, ctx, {
        transport,
        policy: 'fail-closed',
        timeoutMs: state.margins.answerDeadlineMs,
      });
      const event = nextEvent(state);
      const steps = callSteps(state, [event]);
      steps.begin(0);
      const call = state.client.invoke({ event });
      await awaitRequest(state, transport, steps.of(0));
      if (transport === 'stdio-persistent') await call;
      const pids = state.mocks.control.pids();
      if (pids.length === 0) {
        failOn('shutdown.processes-reaped', [
          'the mock reports no backend process, so there is nothing to check',
        ]);
      }
      const elapsed = await timedClose();
      await call.catch(() => undefined);
      const alive = await stillRunningAfter(pids, scaled(REAP_GRACE_MS));
      ctx.evidence({ pids, alive, closeMs: Math.round(elapsed) });
      const problems: string[] = [];
      if (alive.length > 0) {
        problems.push(
          `backend process(es) ${alive.join(', ')} still ran ${scaled(REAP_GRACE_MS)} ms after close completed`,
        );
      }
      if (elapsed > bound) problems.push(`close took ${Math.round(elapsed)} ms, past the ${bound} ms bound`);
      failOn('shutdown.processes-reaped', problems);
    },
  );
}

for (const transport of ['stdio-persistent', 'http'] as const) {
  define(
    `AHPX-SHUT-003/transport:${transport}/a-second-close-is-safe`,
    ['AHPX-SHUT-003'],
    transport,
    async (ctx) => {
      const state = fixture.state;
      loadScenario(state, transport, { rules: [{ behaviour: { kind: 'respond' } }] });
      await configureBackend(state, ctx, {
        transport,
        policy: 'fail-closed',
        timeoutMs: state.margins.answerDeadlineMs,
      });
      await state.client.invoke({ event: nextEvent(state) });
      await closeHarness(state);
      try {
        await closeHarness(state);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        throw new CaseFailure([finding('shutdown.repeat-safe', `a second close failed: ${why}`)]);
      }
    },
  );
}

for (const transport of HARNESS_TRANSPORTS) {
  define(
    `AHPX-SHUT-001/transport:${transport}/invoke-after-close-fails-locally-and-reaches-no-backend`,
    ['AHPX-SHUT-001'],
    transport,
    async (ctx) => {
      const state = fixture.state;
      loadScenario(state, transport, { rules: [{ behaviour: { kind: 'respond' } }] });
      await configureBackend(state, ctx, {
        transport,
        policy: 'fail-open',
        timeoutMs: state.margins.answerDeadlineMs,
      });
      const [before, after] = [nextEvent(state), nextEvent(state)];
      const steps = callSteps(state, [before, after]);
      steps.begin(0);
      await state.client.invoke({ event: before });
      await closeHarness(state);
      steps.begin(1);
      const outcome = await state.client.invoke({ event: after }).then(
        (result) => ({ answered: result }),
        (error: unknown) => ({ error }),
      );
      const problems: string[] = [];
      if ('answered' in outcome) {
        problems.push(
          `invoke after close was answered "${outcome.answered.decision}" instead of failing locally`,
        );
      } else if (!(outcome.error instanceof DriverCallError)) {
        problems.push(`invoke after close did not fail with an error answer: ${String(outcome.error)}`);
      }
      // Whatever the driver answered, the mock must have seen nothing of this call.
      const reached = requestsOf(state, transport, steps.of(1));
      if (reached > 0)
        problems.push(`${reached} request(s) of the call made after close reached the backend`);
      ctx.evidence({ afterClose: 'answered' in outcome ? 'answered' : String(outcome.error), reached });
      failOn('shutdown.admission-stopped', problems);
    },
  );
  define(
    `AHPX-SHUT-005/transport:${transport}/close-during-a-pending-call-ends-it-without-permission`,
    ['AHPX-SHUT-005', 'AHPX-BUD-004'],
    transport,
    async (ctx) => {
      const state = fixture.state;
      loadScenario(state, transport, { rules: [{ behaviour: { kind: 'hang' } }] });
      // fail-open and a long deadline: letting the call run out would end it as "continue".
      await configureBackend(state, ctx, {
        transport,
        policy: 'fail-open',
        timeoutMs: state.margins.answerDeadlineMs,
      });
      const event = nextEvent(state);
      const steps = callSteps(state, [event]);
      steps.begin(0);
      const call = state.client.invoke({ event });
      await awaitRequest(state, transport, steps.of(0));
      const closing = performance.now();
      await closeHarness(state);
      const result = await call;
      const endedMs = performance.now() - closing;
      ctx.evidence({ answer: result as never, endedAfterCloseMs: Math.round(endedMs) });
      const problems: string[] = [];
      if (result.decision !== 'deny') problems.push(`the call pending at close ended "${result.decision}"`);
      if (!result.interrupted) problems.push('the call pending at close is not reported interrupted');
      if (result.ending !== undefined && result.ending !== 'closed') {
        problems.push(`the call pending at close ended "${result.ending}", not "closed"`);
      }
      const limit = state.margins.settleToleranceMs;
      if (endedMs > limit)
        problems.push(`the pending call ended ${Math.round(endedMs)} ms after close (limit ${limit} ms)`);
      failOn('shutdown.pending-call-ended', problems);
    },
  );
}
