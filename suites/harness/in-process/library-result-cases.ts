/**
 * In-process cases on what the library shows its caller, with a transport the case injects (no
 * mock, no process): a fail-closed synthetic denial, for a lost connection and for a call whose
 * budget expired, carries a generic local reason (AHPX-SYN-002;
 * the driver protocol makes `reason` optional, so through a driver a missing one is `untested`),
 * and a backend whose transport the harness cannot build, plain `http` to a remote host, is a
 * configuration error at creation, never a harness that skips the backend (AHP-REG-001). The
 * harness is the reference library, or a broken twin's (library-target.ts); for any other driver
 * the cases are `untested`.
 */
import type { Harness, InvokeResult } from '../../../reference-harness/index.js';
import { conformanceCase } from '../../common/case.js';
import { failOn } from '../kit/rules.js';
import { caseLibrary } from './library-target.js';
import {
  CONNECTION_LOST,
  INTERCEPTOR,
  ScriptedTransport,
  scriptedRegistration,
  TOOL_CALL,
} from './scripted-transport.js';

/** A remote host the harness may only reach over https (http.md, TLS). */
const REMOTE_PLAIN_HTTP = 'http://policy.example.invalid/ahp';

/** The tool call of the cases, under its own call id. */
function toolCall(callId: string) {
  return { ...TOOL_CALL, call: { id: callId } };
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
      const factory = await caseLibrary(ctx);
      // Every request fails at once, as a lost connection does.
      const lost = new ScriptedTransport(() => Promise.resolve(CONNECTION_LOST));
      const harness = factory({
        registration: scriptedRegistration('fail-closed', 1000),
        transports: { [INTERCEPTOR]: lost },
      });
      try {
        const failed = await harness.invoke(toolCall('call-in-process'));
        // A call budget of 0 ends the call before anything is sent. base/failure.md: the host "MAY
        // impose a deadline on the entire hook call", "Deadline exceeded" is an operational
        // failure, and for "a fail-closed operational failure, the harness SHOULD present a
        // generic local reason" ("Synthetic denial"): the interrupted denial needs one too. (A
        // cancellation is no listed operational failure, so the reason sentence is not used on it.)
        const expired = await harness.invoke(toolCall('call-in-process-no-budget'), { budgetMs: 0 });
        ctx.evidence({ connectionLost: shown(failed), budgetExpired: shown(expired) });
        // The settled outcome itself is the fail matrix's to judge; here only the reason counts.
        if (!syntheticDenial(failed)) {
          ctx.untested('the lost connection did not end in a synthetic denial');
        }
        const problems = reasonProblems(failed, 'the fail-closed synthetic denial');
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
      const factory = await caseLibrary(ctx);
      let error: unknown;
      let created: Harness | undefined;
      try {
        created = factory({
          registration: scriptedRegistration('fail-closed', 1000, false, REMOTE_PLAIN_HTTP),
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
      } else if (!message.includes(INTERCEPTOR)) {
        problems.push(`the configuration error does not name the backend "${INTERCEPTOR}": "${message}"`);
      }
      failOn('registration.unusable-transport-refused', problems);
    },
  );
}
