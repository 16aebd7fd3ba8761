/**
 * A token provider the case holds the gate of: each call waits until the case releases it, so a
 * case can cancel a call, or let its deadline pass, while the harness is inside the callback, and
 * decide when the callback returns. Plus the harness and the HTTP mock's view of one call.
 */
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import { PROTOCOL_VERSION } from '../../../protocol/wire-types.js';
import type { HttpMock } from '../../../mock-backend/index.js';
import type {
  Harness,
  InvokeOptions,
  InvokeResult,
  TokenProvider,
} from '../../../reference-harness/index.js';
import { identifiesAs } from '../kit/step-identity.js';
import { decodeFrames } from '../kit/wire-records.js';
import type { LibraryHarness } from './library-target.js';

/** The token every gated call returns; the mock accepts only it. */
export const GOOD_TOKEN = 'fresh-token';

/** How a gated provider treats its calls. */
export interface GateOptions {
  /** Reject a waiting call when its own signal aborts (a provider that honours cancellation). */
  honourSignal: boolean;
}

/** A token provider whose calls wait for `release()`. */
export class GatedProvider implements TokenProvider {
  /** How many times the harness called `getToken`. */
  calls = 0;
  private released = false;
  private readonly waiting: Array<() => void> = [];
  private readonly watchers: Array<{ count: number; resolve: () => void }> = [];

  constructor(private readonly options: GateOptions) {}

  getToken({ signal }: { signal: AbortSignal; refresh: boolean }): Promise<string> {
    this.calls++;
    for (const w of this.watchers.filter((x) => this.calls >= x.count)) w.resolve();
    if (this.released) return Promise.resolve(GOOD_TOKEN);
    return new Promise((resolve, reject) => {
      this.waiting.push(() => resolve(GOOD_TOKEN));
      if (this.options.honourSignal) {
        signal.addEventListener('abort', () => reject(new Error('token request cancelled')), { once: true });
      }
    });
  }

  /** Lets every waiting call (and every later one) have the token. */
  release(): void {
    this.released = true;
    for (const go of this.waiting.splice(0)) go();
  }

  /** Resolves true once the harness has made `count` calls, false after `timeoutMs`. */
  called(count: number, timeoutMs: number): Promise<boolean> {
    if (this.calls >= count) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.watchers.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      });
    });
  }
}

/** A harness with one HTTP backend (the mock) that authenticates through `provider`. */
export function providerHarness(
  factory: LibraryHarness,
  http: HttpMock,
  provider: TokenProvider,
  policy: FailurePolicy,
  timeoutMs: number,
): Harness {
  return factory({
    registration: {
      protocolVersion: PROTOCOL_VERSION,
      hooks: [
        {
          id: 'dev.ahp-conformance.gated-auth',
          transport: { type: 'http', url: http.url },
          authentication: { type: 'bearer', tokenRef: 'gated' },
          subscriptions: [
            {
              events: ['tool.before'],
              mode: 'intercept',
              timeoutMs,
              failurePolicy: policy,
              content: { default: 'metadata' },
            },
          ],
        },
      ],
    },
    tokenProviders: { gated: provider },
  });
}

let calls = 0;

/** Starts one call with a fresh call id; resolves with the id and the result. */
export function startCall(
  harness: Harness,
  options: InvokeOptions = {},
): { callId: string; result: Promise<InvokeResult> } {
  const callId = `call-gated-${process.pid}-${++calls}`;
  const result = harness.invoke(
    { session: { id: 'sess-gated' }, call: { id: callId }, tool: { name: 'Bash', input: { command: 'ls' } } },
    options,
  );
  return { callId, result };
}

/**
 * The `authorization` header of each intercept request the mock received for the call: any frame
 * that carries its call id in an identity field (the harness picks the event ids here).
 */
export function requestsOf(http: HttpMock, callId: string): Array<string | undefined> {
  return decodeFrames(http.recordings({ type: 'inbound' }))
    .filter((f) => f.method === 'hooks/intercept' && identifiesAs(f, [callId]))
    .map((f) => f.authorization);
}

/** Problems with a call that had to go through: "continue" from an empty answer, with the token. */
export function deliveredProblems(
  label: string,
  result: InvokeResult,
  headers: Array<string | undefined>,
): string[] {
  const problems: string[] = [];
  if (result.decision !== 'continue' || result.interrupted)
    problems.push(
      `${label} settled "${result.decision}"${result.interrupted ? ` (interrupted: ${result.ending ?? '?'})` : ''}, not "continue" from the backend's empty answer`,
    );
  const entry = result.audit[0];
  if (entry?.outcome !== 'no-effect')
    problems.push(
      `${label}'s audit outcome is "${entry?.outcome ?? 'missing'}"${entry?.failureCode ? ` (${entry.failureCode})` : ''}, not "no-effect"`,
    );
  if (headers.length === 0) problems.push(`${label} never reached the backend`);
  if (headers.some((h) => h !== `Bearer ${GOOD_TOKEN}`))
    problems.push(`${label} reached the backend without the provider's token`);
  return problems;
}

/** Problems with a call that had to end by cancellation. */
export function cancelledProblems(label: string, result: InvokeResult): string[] {
  if (result.decision === 'deny' && result.interrupted && result.ending !== 'budget-expired') return [];
  return [
    `${label} settled "${result.decision}" (interrupted: ${String(result.interrupted)}, ending: ${result.ending ?? 'none'}), where a cancelled call is an interrupted deny`,
  ];
}
