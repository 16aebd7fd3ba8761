/**
 * In-process cases on what the library shows its caller, with a transport the case injects (no
 * mock, no process): a fail-closed synthetic denial, for a refused connection and for a call whose
 * budget expired, carries a generic local reason (AHPX-SYN-002;
 * the driver protocol makes `reason` optional, so through a driver a missing one is `untested`),
 * and a backend whose transport the harness cannot build, plain `http` to a remote host, is a
 * configuration error at creation, never a harness that skips the backend (AHP-REG-001). The
 * harness is the reference library, or a broken twin's (library-target.ts); for any other driver
 * the cases are `untested`.
 */
import { inject } from 'vitest';
import { PROTOCOL_VERSION } from '../../../protocol/wire-types.js';
import type { BackendTransport, Harness, InvokeResult } from '../../../reference-harness/index.js';
import { conformanceCase, type CaseContext } from '../../common/case.js';
import { HARNESS_TARGET_KEY } from '../kit/provided.js';
import { failOn } from '../kit/rules.js';
import { libraryHarness, type LibraryHarness } from './library-target.js';

const BACKEND_ID = 'dev.ahp-conformance.in-process';

/** One intercept backend on `transport`, fail-closed. */
function registration(transport: { type: 'http'; url: string }) {
  return {
    protocolVersion: PROTOCOL_VERSION,
    hooks: [
      {
        id: BACKEND_ID,
        transport,
        subscriptions: [
          {
            events: ['tool.before'],
            mode: 'intercept',
            timeoutMs: 1000,
            failurePolicy: 'fail-closed',
            content: { default: 'metadata' },
          },
        ],
      },
    ],
  };
}

/** A transport whose every request fails at once, as a refused connection does. */
const refusing: BackendTransport = {
  kind: 'injected',
  request: () =>
    Promise.resolve({
      ok: false,
      failure: { failureClass: 'connection', code: 'test.refused', detail: 'connection refused' },
    }),
  notify: () => Promise.resolve({ ok: true }),
  close: () => Promise.resolve(),
  livePids: () => [],
};

async function factoryFor(ctx: CaseContext): Promise<LibraryHarness> {
  const resolved = await libraryHarness(inject(HARNESS_TARGET_KEY));
  if (!('factory' in resolved)) ctx.untested(resolved.unavailable);
  return (resolved as { factory: LibraryHarness }).factory;
}

/** The call the cases make, under its own call id. */
function toolCall(callId: string) {
  return {
    session: { id: 'sess-in-process' },
    call: { id: callId },
    tool: { name: 'Bash', input: { command: 'ls' } },
  };
}

/** What of a settled call the evidence shows. */
function shown(result: InvokeResult) {
  return {
    decision: result.decision,
    synthetic: result.synthetic,
    ending: result.ending ?? null,
    reason: result.reason ?? null,
  };
}

function syntheticDenial(result: InvokeResult): boolean {
  return result.decision === 'deny' && result.synthetic === true;
}

/** A problem when `result` carries no non-empty reason for the model. */
function reasonProblems(result: InvokeResult, what: string): string[] {
  const reason = result.reason;
  return typeof reason === 'string' && reason.trim() !== ''
    ? []
    : [`${what} carries no reason for the model`];
}

/** Declares the library-result cases in the calling suite file. */
export function declareLibraryResultCases(): void {
  conformanceCase(
    {
      name: 'AHPX-SYN-002/in-process/policy:fail-closed/synthetic-denial-carries-a-reason',
      requirements: ['AHPX-SYN-002'],
      transports: ['http'],
    },
    async (ctx) => {
      const factory = await factoryFor(ctx);
      const harness = factory({
        registration: registration({ type: 'http', url: 'http://127.0.0.1:9/ahp' }),
        transports: { [BACKEND_ID]: refusing },
      });
      try {
        const refused = await harness.invoke(toolCall('call-in-process'));
        // A call budget of 0 ends the call before anything is sent. base/failure.md: the host "MAY
        // impose a deadline on the entire hook call", "Deadline exceeded" is an operational
        // failure, and for "a fail-closed operational failure, the harness SHOULD present a
        // generic local reason" ("Synthetic denial"): the interrupted denial needs one too. (A
        // cancellation is no listed operational failure, so the reason sentence is not used on it.)
        const expired = await harness.invoke(toolCall('call-in-process-no-budget'), { budgetMs: 0 });
        ctx.evidence({ refused: shown(refused), budgetExpired: shown(expired) });
        // The settled outcome itself is the fail matrix's to judge; here only the reason counts.
        if (!syntheticDenial(refused)) {
          ctx.untested('the refused connection did not end in a synthetic denial');
        }
        const problems = reasonProblems(refused, 'the fail-closed synthetic denial');
        // Whether an expired budget denies at all is AHPX-BUD's to judge; only its reason is ours.
        if (syntheticDenial(expired)) {
          problems.push(...reasonProblems(expired, 'the synthetic denial of a call whose budget expired'));
        }
        failOn('synthetic.generic-reason', problems);
      } finally {
        await harness.close();
      }
    },
  );

  conformanceCase(
    {
      name: 'AHP-REG-001/in-process/plain-http-to-a-remote-host-is-refused-at-creation',
      requirements: ['AHP-REG-001'],
      transports: ['http'],
    },
    async (ctx) => {
      const factory = await factoryFor(ctx);
      let error: unknown;
      let created: Harness | undefined;
      try {
        created = factory({
          registration: registration({ type: 'http', url: 'http://policy.example.invalid/ahp' }),
        });
      } catch (caught) {
        error = caught;
      }
      // A harness that was created anyway is the finding; how it then closes is not this case's.
      await created?.close().catch(() => undefined);
      const message = error instanceof Error ? error.message : '';
      ctx.evidence({ created: created !== undefined, message });
      const problems: string[] = [];
      if (created !== undefined) {
        problems.push(
          'the harness was created with a backend it can only reach over plain http to a remote host',
        );
      } else if (!message.includes(BACKEND_ID)) {
        problems.push(`the configuration error does not name the backend "${BACKEND_ID}": "${message}"`);
      }
      failOn('registration.unusable-transport-refused', problems);
    },
  );
}
