import { describe, expect, it } from 'vitest';
import { REPLY_SHAPES, replyText, type ReplyShape } from './hostile-model.js';
import { judgeBody, judgeLine, judgeMessage, mayHoldNoEffectReply, splitLines } from './reply-oracle.js';

const ID = 'evt_oracle_1';
const CAP = 1024;
const line = (text: string) => new TextEncoder().encode(text);

/** What the protocol text makes of each reply shape the generator can send. */
const EXPECTED: Record<ReplyShape, string> = {
  'no-effect': 'no-effect',
  deny: 'deny',
  padded: 'no-effect',
  'unknown-envelope-field': 'no-effect',
  'deny-bad-code': 'invalid/invalid-effects',
  'deny-no-reason': 'invalid/invalid-effects',
  'deny-empty-reason': 'invalid/invalid-effects',
  'deny-extra-field': 'invalid/invalid-effects',
  'deny-extensions': 'unsure',
  'two-denies': 'unsure',
  'deny-then-unknown': 'invalid/invalid-effects',
  'unadvertised-allow': 'invalid/invalid-effects',
  'unknown-effect': 'invalid/invalid-effects',
  'wrong-id': 'invalid/id-mismatch',
  'numeric-id': 'invalid/id-mismatch',
  'null-id': 'invalid/id-mismatch',
  'missing-id': 'invalid/malformed',
  'empty-id': 'invalid/malformed',
  'rpc-error': 'invalid/jsonrpc-error',
  'unsupported-version-error': 'invalid/unsupported',
  'unsupported-event-error': 'invalid/unsupported',
  'error-wrong-id': 'invalid/id-mismatch',
  'bad-error-object': 'invalid/malformed',
  'result-and-error': 'invalid/malformed',
  'missing-effects': 'invalid/missing-fields',
  'missing-version': 'invalid/missing-fields',
  'wrong-version': 'invalid/unsupported',
  'legacy-version': 'invalid/unsupported',
  'effects-not-array': 'invalid/-',
  'result-not-object': 'invalid/-',
  manifest: 'invalid/-',
  'no-jsonrpc': 'invalid/malformed',
  'jsonrpc-1': 'invalid/malformed',
  batch: 'invalid/malformed',
  'request-echo': 'invalid/malformed',
};

describe('reply oracle', () => {
  it.each(REPLY_SHAPES)('judges a %s reply as the protocol text says', (shape) => {
    const verdict = judgeMessage(JSON.parse(replyText({ shape, bytes: 300 }, ID)), ID);
    const label = verdict.kind === 'invalid' ? `invalid/${verdict.failureClass ?? '-'}` : verdict.kind;
    expect(label).toBe(EXPECTED[shape]);
  });

  it('keeps the reason and code of an explicit deny', () => {
    const text = replyText({ shape: 'deny', reason: 'no \u{1F600}', code: 'org.example.x' }, ID);
    expect(judgeMessage(JSON.parse(text), ID)).toEqual({
      kind: 'deny',
      reason: 'no \u{1F600}',
      code: 'org.example.x',
    });
  });

  it('judges stdio lines: CR stripped, BOM and invalid UTF-8 and oversize lines malformed', () => {
    const ok = replyText({ shape: 'no-effect' }, ID);
    expect(judgeLine(line(`${ok}\r`), ID, CAP).kind).toBe('no-effect');
    expect(judgeLine(line(`\uFEFF${ok}`), ID, CAP)).toEqual({ kind: 'invalid', failureClass: 'malformed' });
    expect(judgeLine(new Uint8Array([0x7b, 0xff, 0x7d]), ID, CAP)).toEqual({
      kind: 'invalid',
      failureClass: 'malformed',
    });
    expect(judgeLine(line(ok), ID, ok.length).kind).toBe('no-effect');
    expect(judgeLine(line(ok), ID, ok.length - 1)).toEqual({ kind: 'invalid', failureClass: 'malformed' });
    expect(judgeLine(line(''), ID, CAP)).toEqual({ kind: 'invalid', failureClass: 'malformed' });
  });

  it('leaves a BOM-led HTTP body to the implementation and caps bodies', () => {
    const ok = replyText({ shape: 'no-effect' }, ID);
    expect(judgeBody(line(`\uFEFF${ok}`), ID, CAP).kind).toBe('unsure');
    expect(judgeBody(line(`${ok}\n`), ID, CAP).kind).toBe('no-effect');
    expect(judgeBody(line(ok), ID, 10)).toEqual({ kind: 'invalid', failureClass: 'malformed' });
  });

  it('finds a no-effect reply for this request anywhere, escaped or not, and nothing else', () => {
    const ok = replyText({ shape: 'no-effect' }, ID);
    const other = replyText({ shape: 'no-effect' }, 'evt_other');
    expect(mayHoldNoEffectReply(line(`noise\n${other}\n${ok}\n`), ID)).toBe(true);
    expect(mayHoldNoEffectReply(line(`${ok.replace('evt_', 'evt\\u005f')}\n`), ID)).toBe(true);
    expect(mayHoldNoEffectReply(line(`${other}\n${replyText({ shape: 'deny' }, ID)}\n`), ID)).toBe(false);
    expect(mayHoldNoEffectReply(line(ok.slice(0, -1)), ID)).toBe(false);
  });

  it('splits lines and keeps the unterminated tail', () => {
    const { lines, tail } = splitLines(line('a\nbc\nd'));
    expect(lines.map((l) => new TextDecoder().decode(l))).toEqual(['a', 'bc']);
    expect(new TextDecoder().decode(tail)).toBe('d');
  });
});
