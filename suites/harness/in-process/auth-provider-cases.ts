/**
 * In-process token-provider cases against the reference harness as a library: a slow token
 * acquisition is inside the deadline (AHPX-DL-001); a failed refresh after a 401 follows the
 * policy (AHPX-FAIL-004) and nothing goes out without credentials (AHPX-FAIL-005). A driver target
 * cannot be handed a provider, so for one these cases are `untested`.
 */
import { failOn } from '../kit/rules.js';
import { afterAll, beforeAll, inject } from 'vitest';
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import { startHttpMock, type HttpMock } from '../../../mock-backend/index.js';
import { createHarness, type TokenProvider } from '../../../reference-harness/index.js';
import { conformanceCase } from '../../common/case.js';
import { HARNESS_TARGET_KEY } from '../kit/provided.js';
import { scaledHarnessMargins } from '../kit/timing.js';
import { policyProblems, runProviderCall } from './auth-provider-check.js';
import { inProcessUnavailable } from './in-process-target.js';
import { hookTimeoutMs, scaled } from '../../common/settings.js';

const POLICIES: readonly FailurePolicy[] = ['fail-open', 'fail-closed'];

/** Declares the token-provider cases (hooks included) in the calling suite file. */
export function declareProviderCases(): void {
  const margins = scaledHarnessMargins();
  /** The deadline of the slow-acquisition cases; the provider takes far longer than it. */
  const DEADLINE_MS = scaled(400);
  let http: HttpMock | undefined;
  beforeAll(async () => {
    if (inProcessUnavailable(inject(HARNESS_TARGET_KEY)) !== undefined) return;
    http = await startHttpMock({
      scenario: { rules: [], http: { requireBearer: { token: 'fresh-token' } } },
      control: false,
    });
  }, hookTimeoutMs());
  afterAll(async () => {
    await http?.close();
  }, hookTimeoutMs());

  function ready(ctx: { untested(reason: string): never }): HttpMock {
    const unavailable = inProcessUnavailable(inject(HARNESS_TARGET_KEY));
    if (unavailable !== undefined || !http) ctx.untested(unavailable ?? 'the HTTP mock did not start');
    return http as HttpMock;
  }

  /** A provider that honours its signal but takes far longer than any deadline here. */
  const slowProvider: TokenProvider = {
    getToken: ({ signal }) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve('fresh-token'), DEADLINE_MS * 20);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason as Error);
        });
      }),
  };

  /** A provider whose token the backend refuses, and whose refresh fails. */
  const failingRefresh: TokenProvider = {
    getToken: ({ refresh }) =>
      refresh ? Promise.reject(new Error('refresh refused')) : Promise.resolve('stale-token'),
  };

  for (const policy of POLICIES) {
    conformanceCase(
      {
        name: `AHPX-DL-001/in-process/policy:${policy}/slow-token-acquisition-is-inside-the-deadline`,
        requirements: ['AHPX-DL-001'],
        transports: ['http'],
      },
      async (ctx) => {
        const mock = ready(ctx);
        const run = await runProviderCall({
          factory: createHarness,
          http: mock,
          provider: slowProvider,
          policy,
          timeoutMs: DEADLINE_MS,
        });
        ctx.evidence({ decision: run.result.decision, elapsedMs: Math.round(run.elapsedMs) });
        const problems = policyProblems(run, policy, ['deadline-exceeded', 'auth']);
        const bound = DEADLINE_MS + margins.settleToleranceMs;
        if (run.elapsedMs > bound)
          problems.push(
            `the call took ${Math.round(run.elapsedMs)} ms, past the deadline plus tolerance (${bound} ms)`,
          );
        if (run.authorizations.length > 0)
          problems.push('a request reached the backend although no token was ever acquired');
        failOn('deadline.covers-auth', problems);
      },
    );
    conformanceCase(
      {
        name: `AHPX-FAIL-004/in-process/policy:${policy}/failed-token-refresh-follows-the-policy`,
        requirements: ['AHPX-FAIL-004', 'AHPX-FAIL-005'],
        transports: ['http'],
      },
      async (ctx) => {
        const mock = ready(ctx);
        const run = await runProviderCall({
          factory: createHarness,
          http: mock,
          provider: failingRefresh,
          policy,
          timeoutMs: margins.answerDeadlineMs,
        });
        ctx.evidence({ decision: run.result.decision, authorizations: run.authorizations.length });
        const problems = policyProblems(run, policy, ['auth']);
        if (run.authorizations.length === 0)
          problems.push('the stale token never reached the backend, so no 401 was provoked');
        failOn('auth.failure-follows-policy', problems);
        if (run.authorizations.some((a) => a !== 'Bearer stale-token')) {
          failOn('delivery.no-unauthenticated-fallback', [
            "a request went out without the provider's credentials",
          ]);
        }
      },
    );
  }
}
