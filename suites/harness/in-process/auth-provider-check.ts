/**
 * Token-provider cases over any harness factory (the reference harness in the conformance cases):
 * the deadline covers a slow token acquisition (AHPX-DL-001), and a failed refresh after a 401 is an
 * authentication failure that follows the policy (AHPX-FAIL-004), never a delivery without
 * credentials (AHPX-FAIL-005).
 */
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import { PROTOCOL_VERSION } from '../../../protocol/wire-types.js';
import type { HttpMock } from '../../../mock-backend/index.js';
import type { InvokeResult, TokenProvider } from '../../../reference-harness/index.js';
import type { HarnessFactory } from './ownership-check.js';

const BACKEND_ID = 'dev.ahp-conformance.provided-auth';

/** One provider case: the HTTP mock, the provider, the policy and the deadline. */
export interface ProviderCase {
  factory: HarnessFactory;
  http: HttpMock;
  provider: TokenProvider;
  policy: FailurePolicy;
  timeoutMs: number;
}

/** What the call did: the harness's result, how long it took, and the HTTP requests the mock saw. */
export interface ProviderRun {
  result: InvokeResult;
  elapsedMs: number;
  authorizations: Array<string | undefined>;
}

/** Configures one HTTP backend with `tokenRef` auth and runs one call through it. */
export async function runProviderCall(c: ProviderCase): Promise<ProviderRun> {
  c.http.reset();
  const harness = c.factory({
    registration: {
      protocolVersion: PROTOCOL_VERSION,
      hooks: [
        {
          id: BACKEND_ID,
          transport: { type: 'http', url: c.http.url },
          authentication: { type: 'bearer', tokenRef: 'conformance' },
          subscriptions: [
            {
              events: ['tool.before'],
              mode: 'intercept',
              timeoutMs: c.timeoutMs,
              failurePolicy: c.policy,
              content: { default: 'metadata' },
            },
          ],
        },
      ],
    },
    tokenProviders: { conformance: c.provider },
  });
  try {
    const started = performance.now();
    const result = await harness.invoke({
      session: { id: 'sess-provider' },
      call: { id: `call-provider-${Math.random().toString(36).slice(2)}` },
      tool: { name: 'Bash', input: { command: 'ls' } },
    });
    const elapsedMs = performance.now() - started;
    const authorizations = c.http
      .recordings({ type: 'inbound' })
      .map((r) => (r.type === 'inbound' ? r.http?.headers.authorization : undefined));
    return { result, elapsedMs, authorizations };
  } finally {
    await harness.close();
  }
}

/** The policy's outcome of an operational failure, checked on the harness's result. */
export function policyProblems(
  run: ProviderRun,
  policy: FailurePolicy,
  classes: readonly string[],
): string[] {
  const problems: string[] = [];
  const want = policy === 'fail-closed' ? 'deny' : 'continue';
  if (run.result.decision !== want)
    problems.push(`the call settled "${run.result.decision}" where ${policy} gives "${want}"`);
  if (policy === 'fail-closed' && !run.result.synthetic)
    problems.push('the fail-closed denial is not synthetic');
  const entry = run.result.audit[0];
  if (entry?.outcome !== 'operational-failure')
    problems.push(`the audit outcome is "${entry?.outcome ?? 'missing'}", not "operational-failure"`);
  else if (!classes.includes(entry.failureClass ?? '')) {
    problems.push(
      `the audit names class "${entry.failureClass ?? ''}" where ${classes.join(' or ')} was expected`,
    );
  }
  return problems;
}
