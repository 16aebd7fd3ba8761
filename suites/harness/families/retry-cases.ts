/**
 * The AHP-CORE-004 resend case, shared by the tool.before matrix (retry.conformance.ts) and the
 * per-event family (per-event-cases.ts): two fast failures, then `[]`. A harness allowed to retry
 * sends the third attempt, and the kit's wire check compares every delivery with the first byte
 * for byte (JSON-RPC id = event id, session, call and content included).
 */
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { Behaviour } from '../../../mock-backend/index.js';
import type { CaseStep, HarnessCase } from '../kit/case-model.js';
import type { HarnessTransport } from '../kit/timing.js';
import { deliveredTimes } from './deadline-timing.js';

/** Retries the cases allow: more than any case needs, so the harness's own limit never decides. */
export const RETRIES = 3;
/** An operational failure that comes back at once (class jsonrpc-error). */
export const FAIL_FAST: Behaviour = { kind: 'rpc-error', code: -32603, message: 'temporarily unavailable' };

/** Where the case runs: its name and requirements, transport and policy, and the event it raises. */
export interface ResendCaseBase {
  name: string;
  requirements: string[];
  transport: HarnessTransport;
  policy: FailurePolicy;
  event?: NonNullable<CaseStep['event']>;
}

/** Two failures are retried and the third attempt answers `[]`, over three identical deliveries. */
export function failTwiceThenAnswerCase(base: ResendCaseBase): HarnessCase {
  return {
    ...base,
    retries: RETRIES,
    deadline: 'answer',
    behaviour: { kind: 'sequence', steps: [FAIL_FAST, FAIL_FAST], then: { kind: 'respond', effects: [] } },
    expect: {
      decision: 'continue',
      synthetic: false,
      audit: { outcome: 'no-effect' },
      because: 'two failures are retried and the third attempt answers []',
      rule: 'retry.resend',
    },
    checks: [
      deliveredTimes(3, 'two failures then an answer take three identical deliveries', 'retry.resend'),
    ],
  };
}
