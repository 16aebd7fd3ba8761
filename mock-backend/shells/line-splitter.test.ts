import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter.js';

const text = (s: string) => new TextEncoder().encode(s);
const decoded = (lines: { bytes: Uint8Array; fault?: string }[]) =>
  lines.map((l) =>
    l.fault ? `${l.fault}:${Buffer.from(l.bytes).toString()}` : Buffer.from(l.bytes).toString(),
  );

describe('LineSplitter', () => {
  it('splits at LF across chunks, keeps empty lines, drops one CR before the LF', () => {
    const s = new LineSplitter();
    expect(decoded(s.push(text('{"a":1}\n{"b"')))).toEqual(['{"a":1}']);
    expect(decoded(s.push(text(':2}\r\n\n \n')))).toEqual(['{"b":2}', '', ' ']);
    expect(s.end()).toEqual([]);
  });

  it('does not decode: invalid UTF-8 and split multi-byte characters stay byte-exact', () => {
    const s = new LineSplitter();
    const euro = text('€');
    expect(s.push(new Uint8Array([0x22, euro[0] as number]))).toEqual([]);
    const [line] = s.push(new Uint8Array([euro[1] as number, euro[2] as number, 0x22, 0xff, 0x0a]));
    expect([...(line?.bytes ?? [])]).toEqual([0x22, ...euro, 0x22, 0xff]);
  });

  it('keeps its own copy of an open line, so the chunk that started it may be released', () => {
    const s = new LineSplitter();
    const chunk = Buffer.from('abc\nde');
    expect(decoded(s.push(chunk))).toEqual(['abc']);
    chunk.fill(0x78);
    expect(decoded(s.push(text('f\n')))).toEqual(['def']);
  });

  it('marks a line past the cap as too large, keeps none of its bytes, and goes on with the next line', () => {
    const s = new LineSplitter(8);
    expect(decoded(s.push(text('12345678\n123456789\n')))).toEqual(['12345678', 'too-large:']);
    expect(decoded(s.push(text('1234567')))).toEqual([]);
    expect(decoded(s.push(text('89012')))).toEqual([]);
    expect(decoded(s.push(text('345\nok\n')))).toEqual(['too-large:', 'ok']);
    // A CR that takes a full-size line one byte past the cap is dropped, not counted.
    expect(decoded(s.push(text('12345678\r\n')))).toEqual(['12345678']);
  });

  it('returns a last line without its LF as unterminated, or as too large when it is past the cap', () => {
    const s = new LineSplitter(8);
    s.push(text('{"a":1}'));
    expect(decoded(s.end())).toEqual(['unterminated:{"a":1}']);
    const t = new LineSplitter(8);
    t.push(text('123456789012'));
    expect(decoded(t.end())).toEqual(['too-large:']);
  });
});
