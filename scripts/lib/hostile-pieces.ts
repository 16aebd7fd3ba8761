// The small arbitraries hostile streams are built from: replies (valid and broken), noise lines,
// byte corruptions and delivery timing.
import fc from 'fast-check';
import {
  REPLY_SHAPES,
  type Corruption,
  type Eol,
  type ReplySpec,
  type Segment,
  type Timing,
} from './hostile-model.js';

const VALID_SHAPES: readonly ReplySpec['shape'][] = ['no-effect', 'deny', 'unknown-envelope-field'];
const BROKEN_SHAPES = REPLY_SHAPES.filter((s) => !VALID_SHAPES.includes(s) && s !== 'padded');

export const reasonArb = fc.oneof(
  fc.constant('Blocked by policy.'),
  fc.string({ minLength: 1, maxLength: 30, unit: 'binary' }),
  fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }),
);
export const codeArb = fc.option(fc.constantFrom('org.example.policy.force_push', 'com.example.dlp', 'a.b'), {
  nil: undefined,
});

function spec(shape: ReplySpec['shape'], reason?: string, code?: string): ReplySpec {
  const out: ReplySpec = { shape };
  if (reason !== undefined) out.reason = reason;
  if (code !== undefined) out.code = code;
  return out;
}

export const validReplyArb: fc.Arbitrary<ReplySpec> = fc
  .tuple(fc.constantFrom(...VALID_SHAPES), reasonArb, codeArb)
  .map(([shape, reason, code]) => (shape === 'deny' ? spec(shape, reason, code) : spec(shape)));
export const brokenReplyArb: fc.Arbitrary<ReplySpec> = fc
  .tuple(fc.constantFrom(...BROKEN_SHAPES), reasonArb)
  .map(([shape, reason]) => spec(shape, reason));
export const eolArb: fc.Arbitrary<Eol> = fc.constantFrom<Eol>('lf', 'lf', 'lf', 'crlf');

const NOISE = [
  'policy backend v1 starting',
  '',
  '   ',
  '\t',
  '{',
  '}',
  '"effects": [],',
  'null',
  '[]',
  '{}',
  'DEBUG evaluating tool.before',
  '{"jsonrpc":"2.0","method":"log","params":{}}',
  JSON.stringify({ jsonrpc: '2.0', id: 'x', result: { protocolVersion: 'draft', effects: [] } }, null, 2),
];
export const noiseArb: fc.Arbitrary<Segment> = fc.oneof(
  fc.record({ kind: fc.constant('text' as const), text: fc.constantFrom(...NOISE), eol: eolArb }),
  fc.record({
    kind: fc.constant('text' as const),
    text: fc.string({ maxLength: 40, unit: 'binary' }),
    eol: eolArb,
  }),
  fc.record({
    kind: fc.constant('bytes' as const),
    b64: fc.uint8Array({ minLength: 1, maxLength: 24 }).map((b) => Buffer.from(b).toString('base64')),
    eol: fc.constantFrom<Eol>('lf', 'none'),
  }),
);
export const validSegmentArb: fc.Arbitrary<Segment> = fc.record({
  kind: fc.constant('reply' as const),
  reply: validReplyArb,
  eol: eolArb,
});
export const brokenSegmentArb: fc.Arbitrary<Segment> = fc.record({
  kind: fc.constant('reply' as const),
  reply: brokenReplyArb,
  eol: eolArb,
});
const INSERTS = [
  [0x0a],
  [0x0d, 0x0a],
  [0x0d],
  [0xff],
  [0xc3],
  [0xe2, 0x82],
  [0xed, 0xa0, 0x80],
  [0xc0, 0x80],
  [0xef, 0xbb, 0xbf],
  [0x00],
  [0x22],
  [0x7d],
];
export const atArb = fc.integer({ min: 0, max: 9_999 });
export const corruptionArb: fc.Arbitrary<Corruption> = fc.oneof(
  {
    arbitrary: fc.record({
      op: fc.constant('flip' as const),
      at: atArb,
      xor: fc.integer({ min: 1, max: 255 }),
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ op: fc.constant('truncate' as const), at: atArb }), weight: 1 },
  {
    arbitrary: fc.record({
      op: fc.constant('insert' as const),
      at: atArb,
      bytes: fc.constantFrom(...INSERTS),
    }),
    weight: 3,
  },
);

export function timingArb(maxHopMs: number, maxSplits = 4): fc.Arbitrary<Timing> {
  const hop = fc.oneof(fc.constant(-1), fc.constant(0), fc.integer({ min: 1, max: maxHopMs }));
  return fc.record({
    firstDelayMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: maxHopMs })),
    splits: fc.array(fc.record({ at: atArb, hop }), { maxLength: maxSplits }),
  });
}
