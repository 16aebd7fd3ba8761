import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { frameOf, interceptRequest, runFrames } from './engine-test-frames.js';
import type { Scenario } from './model.js';
import {
  actionsFor,
  bytesWrittenFor,
  decodeBytes,
  encodeBytes,
  inboundRecords,
  parseRecording,
  recordAction,
  recordingToJson,
  strictUtf8,
  unplannedRequests,
  violationRecords,
} from './recording.js';

describe('bytes encoding', () => {
  it('round-trips any bytes exactly, as text when UTF-8 and base64 otherwise', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const encoded = encodeBytes(bytes);
        expect(Buffer.from(decodeBytes(encoded))).toEqual(Buffer.from(bytes));
        const isUtf8 = (() => {
          try {
            new TextDecoder('utf-8', { fatal: true }).decode(bytes);
            return true;
          } catch {
            return false;
          }
        })();
        expect('text' in encoded).toBe(isUtf8);
      }),
    );
  });

  it('keeps a byte-order mark and CRLF as sent', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d, 0x0d, 0x0a]);
    expect(encodeBytes(bytes)).toEqual({ text: '\uFEFF{}\r\n' });
    expect(decodeBytes(encodeBytes(bytes))).toEqual(bytes);
  });

  it('encodes a subarray view without its surrounding buffer', () => {
    const whole = new Uint8Array([0x61, 0xff, 0x62, 0x63]);
    expect(encodeBytes(whole.subarray(2))).toEqual({ text: 'bc' });
    expect(encodeBytes(whole.subarray(1, 2))).toEqual({ base64: '/w==' });
  });

  it('records actions as JSON without sharing mutable headers', () => {
    const head = { type: 'head' as const, afterMs: 0, status: 200, headers: { a: '1' } };
    const recorded = recordAction(head);
    head.headers.a = '2';
    expect(recorded).toEqual({ type: 'head', afterMs: 0, status: 200, headers: { a: '1' } });
    expect(recordAction({ type: 'write', afterMs: 3, bytes: new Uint8Array([0xff]) })).toEqual({
      type: 'write',
      afterMs: 3,
      bytes: { base64: '/w==' },
    });
  });
});

describe('strict UTF-8 decoding', () => {
  const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const reference = (bytes: Uint8Array): string | 'invalid' => {
    try {
      return fatal.decode(bytes);
    } catch {
      return 'invalid';
    }
  };
  const decoded = (bytes: Uint8Array): string | 'invalid' => {
    try {
      return strictUtf8.decode(bytes);
    } catch {
      return 'invalid';
    }
  };
  // Valid text (U+FFFD and surrogate pairs included) with stray bytes spliced in: the decoder
  // must tell a replacement character that was sent from one its own decoding would make.
  const mixed = fc
    .tuple(
      fc.string({ unit: fc.constantFrom('a', '{', '\uFFFD', '\uFEFF', 'é', '€', '😀'), maxLength: 12 }),
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0x80, max: 0xff })), { maxLength: 3 }),
    )
    .map(([text, strays]) => {
      const bytes = [...Buffer.from(text, 'utf8')];
      for (const [at, byte] of strays) bytes.splice(at % (bytes.length + 1), 0, byte);
      return new Uint8Array(bytes);
    });

  it('accepts and rejects exactly what a fatal TextDecoder does, with the same text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 24 }), mixed), (bytes) => {
        expect(decoded(bytes)).toEqual(reference(bytes));
        // Buffers, plain arrays and views into a larger buffer decode alike.
        const inside = new Uint8Array([0xff, ...bytes, 0xff]).subarray(1, bytes.length + 1);
        expect(decoded(inside)).toEqual(reference(bytes));
        expect(decoded(Buffer.from(bytes))).toEqual(reference(bytes));
      }),
    );
  });

  it('keeps a sent U+FFFD and rejects the byte that would decode to one', () => {
    expect(strictUtf8.decode(Buffer.from('{"a":"\uFFFD"}', 'utf8'))).toBe('{"a":"\uFFFD"}');
    expect(() => strictUtf8.decode(new Uint8Array([0x7b, 0xff, 0x7d]))).toThrow(TypeError);
    // A surrogate encoded on its own (CESU-style) is not UTF-8.
    expect(() => strictUtf8.decode(new Uint8Array([0xed, 0xa0, 0x80]))).toThrow(TypeError);
  });
});

describe('recording document and queries', () => {
  const scenario: Scenario = { rules: [{ match: { toolName: 'Read' }, behaviour: { kind: 'deny' } }] };
  const results = runFrames(scenario, [
    frameOf(interceptRequest({ eventId: 'a', tool: 'Read' })),
    frameOf(interceptRequest({ eventId: 'b' })),
    frameOf(new Uint8Array([0xff, 0xfe])),
    frameOf(interceptRequest({ eventId: 'a', tool: 'Read' })),
  ]);
  const entries = results.flatMap((r) => r.records);

  it('reads back from JSON exactly', () => {
    const parsed = parseRecording(recordingToJson(entries));
    expect(parsed).toEqual({ ok: true, entries });
  });

  it('rejects documents that are not recordings with a sentence', () => {
    expect(parseRecording('nope')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^the recording is not JSON/),
    });
    expect(parseRecording('{"format":"x"}')).toEqual({
      ok: false,
      message: 'the recording is not an ahp-mock-recording version 1 document.',
    });
  });

  it('finds deliveries by event id with their attempt numbers', () => {
    expect(inboundRecords(entries, 'a').map((r) => [r.delivery, r.attempt])).toEqual([
      [1, 1],
      [4, 2],
    ]);
  });

  it('lists unplanned requests and violations', () => {
    expect(unplannedRequests(entries).map((r) => r.eventId)).toEqual(['b']);
    expect(violationRecords(entries).map((v) => [v.delivery, v.code])).toEqual([[3, 'invalid-utf8']]);
  });

  it('gives the actions and bytes written for a delivery', () => {
    expect(actionsFor(entries, 2).map((a) => a.type)).toEqual(['write', 'end']);
    expect(Buffer.from(bytesWrittenFor(entries, 3)).toString()).toBe(
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n',
    );
  });
});
