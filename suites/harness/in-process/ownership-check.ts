/**
 * AHPX-SHUT-004 as a check over any harness factory: closing the harness leaves the caller's
 * injected transport (a persistent stdio backend, so "open" means a live process) and its token
 * provider alone. The conformance case runs it on the reference harness; the unit test also runs
 * it on a harness that wrongly closes what it was lent, so the check is proven both ways.
 */
import type {
  Harness,
  HarnessOptions,
  BackendTransport,
  TokenProvider,
} from '../../../reference-harness/index.js';
import { createTransportForBackend } from '../../../reference-harness/index.js';
import { systemClock } from '../../../protocol/clock.js';
import { PROTOCOL_VERSION } from '../../../protocol/wire-types.js';
import { processAlive } from '../../../protocol/process-alive.js';

/** Builds a harness from options (the reference `createHarness`, or a broken one in tests). */
export type HarnessFactory = (options: HarnessOptions) => Harness;

/** What the check needs: a stdio backend command and an HTTP backend URL that answer `[]`. */
export interface OwnershipBackends {
  stdio: readonly string[];
  httpUrl: string;
}

const STDIO_ID = 'dev.ahp-conformance.injected';
const HTTP_ID = 'dev.ahp-conformance.provided-auth';
const subscription = {
  events: ['tool.before'],
  mode: 'intercept',
  timeoutMs: 5000,
  failurePolicy: 'fail-closed',
  content: { default: 'metadata' },
};

/** Runs the check; resolves with its problems (empty when the harness leaves caller-owned things open). */
export async function checkCallerOwnership(
  factory: HarnessFactory,
  backends: OwnershipBackends,
  killGraceMs: number,
): Promise<string[]> {
  const [command, ...args] = backends.stdio as [string, ...string[]];
  const stdioTransport = { type: 'stdio' as const, command, args, lifecycle: 'persistent' as const };
  const injected: BackendTransport = createTransportForBackend(
    { id: STDIO_ID, transport: stdioTransport },
    { clock: systemClock, env: process.env, killGraceMs },
  );
  let providerClosed = false;
  let tokensAfterClose = 0;
  const provider: TokenProvider & { close(): void } = {
    getToken: () => Promise.resolve('provided-token'),
    close: () => {
      providerClosed = true;
    },
  };
  const problems: string[] = [];
  try {
    const harness = factory({
      registration: {
        protocolVersion: PROTOCOL_VERSION,
        hooks: [
          { id: STDIO_ID, transport: stdioTransport, subscriptions: [subscription] },
          {
            id: HTTP_ID,
            transport: { type: 'http', url: backends.httpUrl },
            authentication: { type: 'bearer', tokenRef: 'conformance' },
            subscriptions: [subscription],
          },
        ],
      },
      transports: { [STDIO_ID]: injected },
      tokenProviders: { conformance: provider },
      killGraceMs,
    });
    const before = await harness.invoke({
      session: { id: 'sess-ownership' },
      call: { id: 'call-ownership' },
      tool: { name: 'Bash', input: { command: 'ls' } },
    });
    if (before.decision !== 'continue')
      problems.push(`the call before close settled "${before.decision}", not "continue"`);
    const pids = injected.livePids();
    if (pids.length === 0) problems.push('the injected transport has no live backend process after a call');
    await harness.close();
    const gone = pids.filter((pid) => !processAlive(pid));
    if (gone.length > 0)
      problems.push(`close ended the injected transport's backend process(es) ${gone.join(', ')}`);
    const reply = await injected.request(
      JSON.stringify({ jsonrpc: '2.0', id: 'after-close', method: 'hooks/ping', params: {} }),
      { signal: AbortSignal.timeout(killGraceMs + 5000) },
    );
    if (!reply.ok)
      problems.push(`the injected transport no longer works after close (${reply.failure.code})`);
    if (providerClosed) problems.push('close closed the injected token provider');
    await provider
      .getToken({ signal: AbortSignal.timeout(1000), refresh: false })
      .then(() => tokensAfterClose++);
    if (tokensAfterClose !== 1)
      problems.push('the injected token provider no longer serves tokens after close');
  } finally {
    await injected.close();
  }
  return problems;
}
