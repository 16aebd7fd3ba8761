import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { frameOf, once, readable, writtenText } from './engine-test-frames.js';
import type { Scenario } from './model.js';
import { entriesOf } from './recorded-delivery.js';

const bytes = new Uint8Array([0, 1, 2, 255, 10]);
const digest = createHash('sha256').update(bytes).digest('hex');
const framing = (headers: Record<string, string>) =>
  frameOf(bytes, 'http', { http: { method: 'POST', path: '/upload?tenant=a', headers } });
const good = {
  'content-type': 'application/octet-stream',
  'content-length': String(bytes.length),
  'ahp-content-sha256': digest,
};
const confirm: Scenario = { rules: [], upload: { answer: { kind: 'upload-receipt' } } };
const violations = (s: ReturnType<typeof once>) =>
  s.records.flatMap((r) => (r.type === 'violation' ? [`${r.code}: ${r.message}`] : []));

describe('engine step: an upload endpoint (scenario upload)', () => {
  it('answers a well-framed upload with 201 and the receipt of the bytes received', () => {
    const s = once(confirm, framing(good));
    expect(readable(s.actions)[0]).toMatchObject({ type: 'head', status: 201 });
    const receipt = JSON.parse(writtenText(s.actions)) as Record<string, unknown>;
    expect(receipt).toEqual({ ref: `mock-upload-1-${digest.slice(0, 12)}`, size: 5, sha256: digest });
    expect(violations(s)).toEqual([]);
    // A recording plans the delivery again: the same receipt.
    const recorded = entriesOf(s.recorded).flatMap((e) =>
      e.type === 'outbound' && e.action.type === 'write' ? [e.action.bytes] : [],
    );
    expect(recorded).toEqual([{ text: writtenText(s.actions) }]);
  });

  it('scripts a wrong digest, a refusal, a slow or a missing answer like any behaviour', () => {
    const wrong = once(
      { rules: [], upload: { answer: { kind: 'upload-receipt', sha256: '0'.repeat(64) } } },
      framing(good),
    );
    expect(JSON.parse(writtenText(wrong.actions))).toMatchObject({ size: 5, sha256: '0'.repeat(64) });
    const refused = once(
      { rules: [], upload: { answer: { kind: 'http-status', status: 413 } } },
      framing(good),
    );
    expect(refused.actions[0]).toMatchObject({ status: 413 });
    const slow = once(
      { rules: [], upload: { answer: { kind: 'delay', ms: 500, then: { kind: 'upload-receipt' } } } },
      framing(good),
    );
    expect(slow.actions[0]).toMatchObject({ status: 201, afterMs: 500 });
    const never = once({ rules: [], upload: { answer: { kind: 'hang' } } }, framing(good));
    expect(never.actions).toEqual([{ type: 'hang', afterMs: 0 }]);
  });

  it('answers 400 and records each framing fault, whatever the scripted answer', () => {
    const s = once(confirm, framing({ 'content-type': 'application/json', 'content-length': '9' }));
    expect(s.actions[0]).toMatchObject({ status: 400 });
    expect(violations(s)).toEqual([
      "upload-framing: Content-Type is 'application/json', not application/octet-stream",
      'upload-framing: Content-Length is 9; the body holds 5 octets',
      'upload-framing: AHP-Content-SHA256 is missing',
    ]);
    const upper = once(confirm, framing({ ...good, 'ahp-content-sha256': digest.toUpperCase() }));
    expect(violations(upper)).toEqual([
      `upload-framing: AHP-Content-SHA256 '${digest.toUpperCase()}' is not 64 lowercase hex characters`,
    ]);
    const other = once(confirm, framing({ ...good, 'ahp-content-sha256': 'a'.repeat(64) }));
    expect(violations(other)).toEqual([
      'upload-framing: AHP-Content-SHA256 is not the SHA-256 of the body received',
    ]);
  });
});
