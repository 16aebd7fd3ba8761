/**
 * Cross-checks what the driver reported against what the mock recorded on the wire: a call the
 * driver settled from a reply must have reached the mock; a call that must not be delivered (no
 * credentials, nothing to launch) must not have been; every intercept's JSON-RPC id equals its
 * event id; retried deliveries are byte-identical; the reported attempts and event id match the
 * recordings; a call the audit says was answered had a reply; bearer credentials are on every
 * HTTP request. The last six are hygiene rules that hold in every call (`crossCutting` in
 * kit/rules.ts): the case decides which of their findings it judges (run-step.ts). Pure.
 */
import type { InvokeResult } from '../../driver/index.js';
import type { Finding } from '../../common/finding.js';
import type { Expected } from './case-model.js';
import { interceptEntries } from './judge.js';
import { ANSWERED_OUTCOMES } from './outcome-rules.js';
import { finding } from './rules.js';
import { bytesText, type CaseRecords } from './wire-records.js';

/** What the wire check needs besides the records. */
export interface WireCheckInput {
  expected: Expected;
  result: InvokeResult;
  records: CaseRecords;
  backendId: string;
  /** The exact `Authorization` value every HTTP request must carry, when the case configures auth. */
  authorization?: string;
}

/** Findings and, when the wire shows the case cannot be judged, why it is untested. */
export interface WireVerdict {
  findings: Finding[];
  untested?: string;
}

function sameBytes(a: CaseRecords['requests'][number], b: CaseRecords['requests'][number]): boolean {
  return bytesText(a.bytes) === bytesText(b.bytes) && 'base64' in a.bytes === 'base64' in b.bytes;
}

/** Whether the call reached the mock as the expectation says. */
function deliveryFindings(input: WireCheckInput): Finding[] {
  const { expected, result, records } = input;
  if (expected.wire === 'none' && records.frames.length > 0) {
    return [
      finding(
        expected.deliveryRule,
        `the mock received ${records.frames.length} frame(s) for this call, but ${expected.because}: nothing may be delivered`,
        { way: 'delivered' },
      ),
    ];
  }
  if (expected.wire === 'delivered' && records.requests.length === 0) {
    return [
      finding(
        expected.deliveryRule,
        `the driver reported "${result.decision}" but no hooks/intercept request for this call reached the mock`,
        { way: 'not-delivered' },
      ),
    ];
  }
  return [];
}

/** Every mismatch between the driver's answer and the mock's recordings of the call. */
export function checkWire(input: WireCheckInput): WireVerdict {
  const { expected, result, records } = input;
  const findings = deliveryFindings(input);
  const requests = records.requests;
  for (const r of requests) {
    if (!r.hasId || r.jsonrpcId !== r.eventId) {
      findings.push(
        finding(
          'intercept.id-is-event-id',
          `delivery ${r.delivery}: the JSON-RPC id ${JSON.stringify(r.jsonrpcId ?? null)} is not the event id ${JSON.stringify(r.eventId ?? null)}`,
        ),
      );
    }
  }
  const first = requests[0];
  if (first) {
    for (const r of requests.slice(1)) {
      if (!sameBytes(first, r)) {
        findings.push(
          finding(
            'retry.identical-bytes',
            `delivery ${r.delivery} repeats the call with bytes that differ from delivery ${first.delivery}`,
          ),
        );
      }
    }
    if (result.eventId !== undefined && first.eventId !== result.eventId) {
      findings.push(
        finding(
          'event.reported-id',
          `the driver reports event id "${result.eventId}" but the wire carried "${first.eventId ?? ''}"`,
        ),
      );
    }
  }
  const entry = interceptEntries(result, input.backendId)[0];
  if (entry?.attempts !== undefined && expected.wire === 'delivered' && entry.attempts !== requests.length) {
    findings.push(
      finding(
        'audit.attempts',
        `the audit reports ${entry.attempts} attempt(s) but the mock received ${requests.length} request(s)`,
      ),
    );
  }
  if (entry && ANSWERED_OUTCOMES.has(entry.outcome)) {
    if (!requests.some((r) => r.actions.some((a) => a.type === 'write'))) {
      findings.push(
        finding(
          'audit.answer-without-reply',
          `the audit says the backend answered ("${entry.outcome}") but the mock wrote no reply for this call`,
        ),
      );
    }
  }
  if (input.authorization !== undefined) {
    for (const r of records.frames) {
      if (r.transport === 'http' && r.authorization !== input.authorization) {
        findings.push(
          finding(
            'auth.bearer-header',
            `delivery ${r.delivery} reached the backend ${r.authorization === undefined ? 'without credentials' : 'with the wrong credentials'}`,
          ),
        );
      }
    }
  }
  const verdict: WireVerdict = { findings };
  const advertised = first?.advertised ?? [];
  const overlap = (expected.unadvertised ?? []).filter((t) => advertised.includes(t));
  if (overlap.length > 0) {
    verdict.untested = `the harness advertised ${overlap.join(', ')}, so the mock cannot answer with an unadvertised effect`;
  }
  return verdict;
}
