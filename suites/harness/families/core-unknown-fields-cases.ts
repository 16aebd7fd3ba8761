/**
 * AHP-CORE-003: unknown fields of the result envelope are ignored (the answer stands), while an
 * unknown field inside an effect rejects the whole response and the failure policy applies.
 */
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import { REQUEST_ID_TEMPLATE, type Behaviour } from '../../../mock-backend/index.js';
import type { CaseStep, HarnessCase } from '../kit/case-model.js';
import { HARNESS_TRANSPORTS, type HarnessTransport } from '../kit/timing.js';
import { EXPLICIT_DENY_REASON, POLICIES } from './fail-matrix.js';

/**
 * Exact reply bytes with unknown members in `result` (the mock has no behaviour that adds them),
 * answering the id the harness sent, as it sent it: the case judges unknown fields, never the id.
 */
function replyWithUnknownFields(transport: HarnessTransport, effects: unknown[]): Behaviour {
  const result = {
    protocolVersion: 'draft',
    effects,
    decisionId: 'd-1234',
    evaluatedBy: { engine: 'future-engine', version: 9 },
    'dev.example.audit': true,
  };
  const idSlot = 'request-id-slot';
  const text = JSON.stringify({ jsonrpc: '2.0', id: idSlot, result }).replace(
    JSON.stringify(idSlot),
    REQUEST_ID_TEMPLATE,
  );
  return { kind: 'raw', chunks: [{ text: transport === 'http' ? text : `${text}\n` }] };
}

function ignoredCase(transport: HarnessTransport, policy: FailurePolicy): HarnessCase {
  const deny = { type: 'deny', reason: EXPLICIT_DENY_REASON };
  const steps: [CaseStep, ...CaseStep[]] = [
    {
      label: 'unknown-result-fields-with-deny',
      behaviour: replyWithUnknownFields(transport, [deny]),
      means: {
        kind: 'deny',
        reason: EXPLICIT_DENY_REASON,
        because: 'a valid deny with unknown result fields',
        rule: 'unknown-fields.ignored',
      },
    },
    {
      label: 'unknown-result-fields-with-empty-effects',
      behaviour: replyWithUnknownFields(transport, []),
      means: {
        kind: 'answer',
        because: 'a valid empty effect list with unknown result fields',
        rule: 'unknown-fields.ignored',
      },
    },
    {
      label: 'reverse-dns-result-extension',
      behaviour: { kind: 'respond', extensions: { 'dev.example.trace': { id: 'abc' } } },
      expect: { rule: 'unknown-fields.ignored' },
    },
  ];
  const [first, ...rest] = steps;
  return {
    name: `AHP-CORE-003/transport:${transport}/policy:${policy}/unknown-result-fields-are-ignored`,
    requirements: ['AHP-CORE-003'],
    transport,
    policy,
    ...first,
    then: rest,
  };
}

function rejectedCase(transport: HarnessTransport, policy: FailurePolicy): HarnessCase {
  return {
    name: `AHP-CORE-003/transport:${transport}/policy:${policy}/unknown-effect-field-rejects-the-response`,
    requirements: ['AHP-CORE-003', 'AHP-FAIL-001'],
    transport,
    policy,
    label: 'deny-with-unknown-field',
    behaviour: {
      kind: 'respond',
      effects: [{ type: 'deny', reason: EXPLICIT_DENY_REASON, severity: 'high' }],
    },
    then: [
      {
        // Atomic: the valid deny beside the bad member is not salvaged.
        label: 'valid-deny-beside-a-bad-member',
        behaviour: {
          kind: 'respond',
          effects: [
            { type: 'deny', reason: EXPLICIT_DENY_REASON },
            { type: 'deny', reason: 'second', ttlSeconds: 30 },
          ],
        },
      },
    ],
  };
}

/**
 * Both policies over persistent stdio and HTTP; over per_event (a process per call) the policy
 * that tells the two outcomes apart best: fail-closed for ignored fields (a rejection would be a
 * synthetic deny instead of the explicit one), fail-open for a rejected response (an accepted one
 * would deny instead of continuing).
 */
export function unknownFieldCases(): HarnessCase[] {
  return HARNESS_TRANSPORTS.flatMap((t) =>
    t === 'stdio-per_event'
      ? [ignoredCase(t, 'fail-closed'), rejectedCase(t, 'fail-open')]
      : POLICIES.flatMap((p) => [ignoredCase(t, p), rejectedCase(t, p)]),
  );
}
