import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLine, encodeFrame, NdjsonDecoder, type NdjsonItem } from './ndjson.js';

const enc = new TextEncoder();
const bytes = (s: string) => enc.encode(s);

function feed(decoder: NdjsonDecoder, chunks: Uint8Array[]): NdjsonItem[] {
  return [...chunks.flatMap((c) => decoder.push(c)), ...decoder.end()];
}

/** Cuts `data` at the given (sorted, deduplicated) offsets. */
function splitAt(data: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(data.subarray(prev, p));
    prev = p;
  }
  out.push(data.subarray(prev));
  return out;
}

const summary = (items: NdjsonItem[]) =>
  items.map((i) => (i.kind === 'frame' ? { frame: i.value } : { fault: i.code }));

describe('NdjsonDecoder', () => {
  it('yields one frame per newline-terminated line and keeps the exact bytes', () => {
    const d = new NdjsonDecoder();
    const items = d.push(bytes('{"a":1}\n{"b":"é"}\n'));
    expect(summary(items)).toEqual([{ frame: { a: 1 } }, { frame: { b: 'é' } }]);
    const second = items[1];
    expect(second?.kind === 'frame' && Array.from(second.bytes)).toEqual(Array.from(bytes('{"b":"é"}')));
    expect(d.end()).toEqual([]);
  });

  it('strips one CR before the newline (CRLF framing)', () => {
    const items = new NdjsonDecoder().push(bytes('{"a":1}\r\n'));
    expect(summary(items)).toEqual([{ frame: { a: 1 } }]);
  });

  it('waits for the newline and reports buffered bytes', () => {
    const d = new NdjsonDecoder();
    expect(d.push(bytes('{"a":'))).toEqual([]);
    expect(d.pendingBytes).toBe(5);
    expect(summary(d.push(bytes('2}\n')))).toEqual([{ frame: { a: 2 } }]);
    expect(d.pendingBytes).toBe(0);
  });

  it('decodes a multi-byte character split across chunks', () => {
    const data = bytes('{"s":"€𝄞"}\n');
    const d = new NdjsonDecoder();
    const items = [...data].flatMap((b) => d.push(Uint8Array.of(b)));
    expect(summary(items)).toEqual([{ frame: { s: '€𝄞' } }]);
  });

  it('reports invalid UTF-8 as a fault for that line only', () => {
    const d = new NdjsonDecoder();
    const data = Uint8Array.of(...bytes('{"a":1}\n{"b":"'), 0xc3, 0x28, ...bytes('"}\n{"c":3}\n'));
    expect(summary(d.push(data))).toEqual([
      { frame: { a: 1 } },
      { fault: 'invalid-utf8' },
      { frame: { c: 3 } },
    ]);
  });

  it('rejects overlong encodings and encoded surrogates', () => {
    for (const bad of [
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf8, 0x88, 0x80, 0x80, 0x80],
    ]) {
      const items = new NdjsonDecoder().push(Uint8Array.of(0x22, ...bad, 0x22, 0x0a));
      expect(summary(items)).toEqual([{ fault: 'invalid-utf8' }]);
    }
  });

  it('reports empty, non-JSON and pretty-printed lines as distinct faults', () => {
    const d = new NdjsonDecoder();
    const text = '\n   \nhello banner\n{\n  "jsonrpc": "2.0",\n}\n';
    expect(summary(d.push(bytes(text)))).toEqual([
      { fault: 'empty-line' },
      { fault: 'empty-line' },
      { fault: 'not-json' },
      { fault: 'multi-line' },
      { fault: 'multi-line' },
      { fault: 'multi-line' },
    ]);
  });

  it('treats an unterminated final line as a fault at end of stream', () => {
    const d = new NdjsonDecoder();
    expect(d.push(bytes('{"a":1}'))).toEqual([]);
    expect(summary(d.end())).toEqual([{ fault: 'multi-line' }]);
    const d2 = new NdjsonDecoder();
    d2.push(Uint8Array.of(0xff));
    expect(summary(d2.end())).toEqual([{ fault: 'invalid-utf8' }]);
  });

  it('caps a frame, drops its bytes, and recovers on the next line', () => {
    const d = new NdjsonDecoder({ maxFrameBytes: 8 });
    const items = [
      ...d.push(bytes('{"a":"0123')),
      ...d.push(bytes('456789"}')),
      ...d.push(bytes('\n{"b":1}\n')),
    ];
    expect(summary(items)).toEqual([{ fault: 'frame-too-large' }, { frame: { b: 1 } }]);
    expect(d.pendingBytes).toBe(0);
  });

  it('allows a frame of exactly the cap, with or without CR, and rejects one byte more', () => {
    const exact = '{"a":12}'; // 8 bytes
    expect(summary(new NdjsonDecoder({ maxFrameBytes: 8 }).push(bytes(`${exact}\n`)))).toEqual([
      { frame: { a: 12 } },
    ]);
    expect(summary(new NdjsonDecoder({ maxFrameBytes: 8 }).push(bytes(`${exact}\r\n`)))).toEqual([
      { frame: { a: 12 } },
    ]);
    expect(summary(new NdjsonDecoder({ maxFrameBytes: 8 }).push(bytes('{"a":123}\n')))).toEqual([
      { fault: 'frame-too-large' },
    ]);
  });

  it('treats a byte-order mark the same in the decoder and in decodeLine (not JSON text)', () => {
    const line = Uint8Array.of(0xef, 0xbb, 0xbf, ...bytes('{"a":1}'));
    const viaDecoder = new NdjsonDecoder().push(Uint8Array.of(...line, 0x0a));
    expect(summary(viaDecoder)).toEqual([{ fault: 'not-json' }]);
    expect(summary([decodeLine(line)])).toEqual([{ fault: 'not-json' }]);
  });

  it('encodeFrame writes one line that decodes back to the value', () => {
    const value = { text: 'line1\nline2', n: [1, 2] };
    const frame = encodeFrame(value);
    expect(frame.indexOf('\n')).toBe(frame.length - 1);
    expect(summary(new NdjsonDecoder().push(bytes(frame)))).toEqual([{ frame: value }]);
  });
});

describe('NdjsonDecoder properties', () => {
  const line = fc.jsonValue().map((v) => JSON.stringify(v));

  it('any split of a valid stream gives the same frames', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (lines, cuts) => {
          const data = bytes(lines.map((l) => `${l}\n`).join(''));
          const whole = feed(new NdjsonDecoder(), [data]);
          const split = feed(new NdjsonDecoder(), splitAt(data, cuts));
          expect(summary(split)).toEqual(summary(whole));
          expect(summary(whole)).toEqual(lines.map((l) => ({ frame: JSON.parse(l) })));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('an invalid byte yields an invalid-utf8 fault for exactly that line, across any split', () => {
    // 0x80-0xBF alone, 0xC0/0xC1, 0xF5-0xFF are never valid as a lead byte in a JSON string.
    const badByte = fc.oneof(
      fc.integer({ min: 0x80, max: 0xbf }),
      fc.constantFrom(0xc0, 0xc1),
      fc.integer({ min: 0xf5, max: 0xff }),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.jsonValue().map((v) => JSON.stringify({ v })),
          { minLength: 1, maxLength: 6 },
        ),
        fc.nat(),
        badByte,
        fc.array(fc.nat(), { maxLength: 10 }),
        (lines, which, bad, cuts) => {
          const target = which % lines.length;
          const parts = lines.map((l, i) => {
            const b = bytes(l);
            // Put the bad byte right after `{"v":`, inside the frame, where it cannot be mistaken for framing.
            return i === target
              ? Uint8Array.of(...b.subarray(0, 5), bad, ...b.subarray(5), 0x0a)
              : Uint8Array.of(...b, 0x0a);
          });
          const data = Uint8Array.from(parts.flatMap((p) => [...p]));
          const items = feed(new NdjsonDecoder(), splitAt(data, cuts));
          expect(items).toHaveLength(lines.length);
          items.forEach((item, i) => {
            if (i === target) expect(item.kind === 'fault' && item.code).toBe('invalid-utf8');
            else expect(item.kind).toBe('frame');
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});
