/**
 * In-process cases about the token provider, the one external authorization callback a harness
 * makes inside a hook call:
 * - AHPX-INT-003: when the callback returns after the call was cancelled or its deadline passed,
 *   the harness rechecks both before using what it returned (no request goes out with that token),
 *   and it holds no lock across the callback (the harness closes while a callback is blocked).
 * - AHPX-BUD-007: cancelling one call's wait on a token acquisition leaves the other callers
 *   waiting for theirs (a harness that shares one acquisition must not let the first caller's
 *   cancellation end it for everybody).
 * The provider is gated (gated-provider.ts), so the case decides when the callback returns. The
 * harness is the reference library, or a broken twin's (library-target.ts); for any other driver
 * the cases are `untested`.
 */
import { failOn } from '../kit/rules.js';
import { afterAll, beforeAll, inject } from 'vitest';
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import { startHttpMock, type HttpMock } from '../../../mock-backend/index.js';
import type { InvokeResult } from '../../../reference-harness/index.js';
import { conformanceCase, type CaseContext } from '../../common/case.js';
import { HARNESS_TARGET_KEY } from '../kit/provided.js';
import { scaledHarnessMargins } from '../kit/timing.js';
import {
  cancelledProblems,
  deliveredProblems,
  GatedProvider,
  GOOD_TOKEN,
  providerHarness,
  requestsOf,
  startCall,
} from './gated-provider.js';
import { libraryHarness, type LibraryHarness } from './library-target.js';
import { hookTimeoutMs, scaled } from '../../common/settings.js';

const POLICIES: readonly FailurePolicy[] = ['fail-open', 'fail-closed'];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Declares the auth-callback cases (hooks included) in the calling suite file. */
export function declareAuthCallbackCases(): void {
  const margins = scaledHarnessMargins();
  /**
   * How long the suite watches the mock, after the callback returned, for a request that must not
   * come: a loopback request lands within milliseconds of the token.
   */
  const WATCH_MS = scaled(1000);
  /** The longest the callback stays blocked when the call has not settled without it. */
  const HOLD_MS = scaled(1500);
  /** The short deadline the deadline case runs into while the callback is blocked. */
  const SHORT_DEADLINE_MS = scaled(400);
  /** How long a second caller gets to reach the provider (no I/O lies before it). */
  const JOIN_MS = scaled(300);

  let http: HttpMock | undefined;
  let resolved: { factory: LibraryHarness } | { unavailable: string } | undefined;
  beforeAll(async () => {
    resolved = await libraryHarness(inject(HARNESS_TARGET_KEY));
    if (!('factory' in resolved)) return;
    http = await startHttpMock({
      scenario: { rules: [], http: { requireBearer: { token: GOOD_TOKEN } } },
      control: false,
    });
  }, hookTimeoutMs());
  afterAll(async () => {
    await http?.close();
  }, hookTimeoutMs());

  /** The harness factory and the reset mock, or the case ends untested. */
  function ready(ctx: CaseContext): { factory: LibraryHarness; mock: HttpMock } {
    if (!resolved || !('factory' in resolved) || !http) {
      ctx.untested(
        resolved && 'unavailable' in resolved ? resolved.unavailable : 'the HTTP mock did not start',
      );
    }
    const mock = http as HttpMock;
    mock.reset();
    return { factory: (resolved as { factory: LibraryHarness }).factory, mock };
  }

  /**
   * Runs one call whose callback is blocked until it settled (or HOLD_MS passed), then lets the
   * callback return and watches the mock. `interrupt` runs once the harness is in the callback.
   */
  async function blockedCallback(
    ctx: CaseContext,
    policy: FailurePolicy,
    timeoutMs: number,
    interrupt: () => void,
    signal?: AbortSignal,
  ): Promise<{ result: InvokeResult; late: Array<string | undefined>; problems: string[] }> {
    const { factory, mock } = ready(ctx);
    const provider = new GatedProvider({ honourSignal: false });
    const harness = providerHarness(factory, mock, provider, policy, timeoutMs);
    try {
      const call = startCall(harness, signal ? { signal } : {});
      const problems: string[] = [];
      if (await provider.called(1, margins.answerDeadlineMs)) interrupt();
      else problems.push('the harness never asked the token provider for a token');
      await Promise.race([call.result, sleep(HOLD_MS)]);
      provider.release();
      const result = await call.result;
      await sleep(WATCH_MS);
      return { result, late: requestsOf(mock, call.callId), problems };
    } finally {
      provider.release();
      await harness.close();
    }
  }

  const evidence = (ctx: CaseContext, result: InvokeResult, late: number) =>
    ctx.evidence({
      decision: result.decision,
      interrupted: result.interrupted,
      ending: result.ending ?? null,
      outcome: result.audit[0]?.outcome ?? null,
      requestsAfterTheCallback: late,
    });

  conformanceCase(
    {
      name: 'AHPX-INT-003/in-process/policy:fail-open/cancellation-is-rechecked-after-the-token-callback',
      requirements: ['AHPX-INT-003'],
      transports: ['http'],
    },
    async (ctx) => {
      const cancel = new AbortController();
      const { result, late, problems } = await blockedCallback(
        ctx,
        'fail-open',
        margins.answerDeadlineMs,
        () => cancel.abort(),
        cancel.signal,
      );
      evidence(ctx, result, late.length);
      problems.push(...cancelledProblems('the cancelled call', result));
      if (late.length > 0)
        problems.push(
          `${late.length} request(s) reached the backend with the token the callback returned after the call was cancelled: cancellation was not rechecked before the token was used`,
        );
      failOn('auth.callback-rechecked', problems);
    },
  );

  conformanceCase(
    {
      name: 'AHPX-INT-003/in-process/policy:fail-closed/deadline-is-rechecked-after-the-token-callback',
      requirements: ['AHPX-INT-003'],
      transports: ['http'],
    },
    async (ctx) => {
      const { result, late, problems } = await blockedCallback(ctx, 'fail-closed', SHORT_DEADLINE_MS, () => {
        // The deadline does the interrupting: nothing to do while the callback blocks.
      });
      evidence(ctx, result, late.length);
      if (result.decision !== 'deny' || !result.synthetic)
        problems.push(
          `the call settled "${result.decision}" (synthetic: ${String(result.synthetic)}), where a deadline under fail-closed is a synthetic deny`,
        );
      if (result.audit[0]?.outcome !== 'operational-failure')
        problems.push(
          `the audit outcome is "${result.audit[0]?.outcome ?? 'missing'}", not "operational-failure"`,
        );
      if (late.length > 0)
        problems.push(
          `${late.length} request(s) reached the backend with the token the callback returned after the ${SHORT_DEADLINE_MS} ms deadline: the deadline was not rechecked before the token was used`,
        );
      failOn('auth.callback-rechecked', problems);
    },
  );

  conformanceCase(
    {
      name: 'AHPX-INT-003/in-process/policy:fail-closed/no-lock-is-held-across-the-token-callback',
      requirements: ['AHPX-INT-003'],
      transports: ['http'],
    },
    async (ctx) => {
      const { factory, mock } = ready(ctx);
      // Closing needs the harness's state and nothing from the provider: a harness that holds its
      // state lock across the callback cannot close until the callback returns. (A second call
      // would not tell: it may rightly wait for a token acquisition it shares with the first.)
      const provider = new GatedProvider({ honourSignal: false });
      const harness = providerHarness(factory, mock, provider, 'fail-closed', margins.answerDeadlineMs);
      try {
        const blocked = startCall(harness);
        if (!(await provider.called(1, margins.answerDeadlineMs)))
          failOn('auth.callback-rechecked', ['the harness never asked the token provider for a token']);
        const closing = harness.close();
        const closedInTime = await Promise.race([
          closing.then(() => true),
          sleep(margins.settleToleranceMs).then(() => false),
        ]);
        provider.release();
        await closing;
        const result = await blocked.result;
        await sleep(WATCH_MS);
        const late = requestsOf(mock, blocked.callId);
        evidence(ctx, result, late.length);
        const problems: string[] = [];
        if (!closedInTime)
          problems.push(
            `close did not complete within ${margins.settleToleranceMs} ms while a token callback was blocked: the harness held its state across the callback`,
          );
        if (result.decision !== 'deny' || !result.interrupted)
          problems.push(
            `the call pending at close settled "${result.decision}" (interrupted: ${String(result.interrupted)}), where a call ended by close is an interrupted deny`,
          );
        if (late.length > 0)
          problems.push(
            `${late.length} request(s) reached the backend with the token the callback returned after close`,
          );
        failOn('auth.callback-rechecked', problems);
      } finally {
        provider.release();
        await harness.close();
      }
    },
  );

  for (const policy of POLICIES) {
    conformanceCase(
      {
        name: `AHPX-BUD-007/in-process/policy:${policy}/cancelling-one-wait-on-token-acquisition-leaves-the-other-caller`,
        requirements: ['AHPX-BUD-007'],
        transports: ['http'],
      },
      async (ctx) => {
        const { factory, mock } = ready(ctx);
        // Honours each call's signal, as the contract asks: the cancelled caller's wait ends.
        const provider = new GatedProvider({ honourSignal: true });
        const harness = providerHarness(factory, mock, provider, policy, margins.answerDeadlineMs);
        const cancel = new AbortController();
        try {
          const first = startCall(harness, { signal: cancel.signal });
          if (!(await provider.called(1, margins.answerDeadlineMs)))
            failOn('auth.shared-wait-cancel', ['the harness never asked the token provider for a token']);
          const second = startCall(harness);
          // A harness that shares the acquisition makes no second provider call: wait a moment.
          await provider.called(2, JOIN_MS);
          cancel.abort();
          provider.release();
          const [cancelled, other] = await Promise.all([first.result, second.result]);
          const headers = requestsOf(mock, second.callId);
          ctx.evidence({
            cancelled: cancelled.ending ?? cancelled.decision,
            other: other.decision,
            otherOutcome: other.audit[0]?.outcome ?? null,
            providerCalls: provider.calls,
          });
          const problems = [
            ...cancelledProblems('the cancelled call', cancelled),
            ...deliveredProblems('the other call waiting for a token', other, headers),
          ];
          failOn('auth.shared-wait-cancel', problems);
        } finally {
          cancel.abort();
          provider.release();
          await harness.close();
        }
      },
    );
  }
}
