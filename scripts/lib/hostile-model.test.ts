import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IN_PROCESS_PROFILE, hostileStreamArb } from './hostile-arbitraries.js';
import {
  chunksOf,
  delayBefore,
  estimatedBytes,
  replyText,
  scriptChunks,
  streamBytes,
  type HostileStream,
  type ScriptChunk,
} from './hostile-model.js';

const base: HostileStream = {
  category: 'test',
  policy: 'fail-closed',
  timeoutMs: 50,
  segments: [],
  corruptions: [],
  timing: { firstDelayMs: 0, splits: [] },
  end: 'eof',
};
const text = (b: Uint8Array) => Buffer.from(b).toString('latin1');

/** What a backend process rebuilds from its script (the same rule as the .mjs backends). */
function rebuild(chunks: ScriptChunk[]): Buffer {
  return Buffer.concat(
    chunks.flatMap((c) =>
      c.pieces.map((p) => ('b64' in p ? Buffer.from(p.b64, 'base64') : Buffer.alloc(p.size, p.fill))),
    ),
  );
}

describe('hostile stream model', () => {
  it('joins segments with their line ends and applies corruptions in order', () => {
    const stream: HostileStream = {
      ...base,
      segments: [
        { kind: 'text', text: 'ab', eol: 'crlf' },
        { kind: 'flood', line: 'x', count: 3 },
        { kind: 'bytes', b64: Buffer.from([0xff]).toString('base64'), eol: 'none' },
      ],
    };
    expect(text(streamBytes(stream, 'id'))).toBe('ab\r\nx\nx\nx\n\xff');
    const flipped = { ...stream, corruptions: [{ op: 'flip' as const, at: 0, xor: 0x20 }] };
    expect(text(streamBytes(flipped, 'id')).slice(0, 2)).toBe('Ab');
    const cut = { ...stream, corruptions: [{ op: 'truncate' as const, at: 5000 }] };
    expect(streamBytes(cut, 'id').length).toBe(5);
    const inserted = { ...stream, corruptions: [{ op: 'insert' as const, at: 0, bytes: [0x0a] }] };
    expect(text(streamBytes(inserted, 'id')).slice(0, 3)).toBe('\nab');
  });

  it('pads a no-effect reply to an exact length and sizes an oversized line', () => {
    expect(replyText({ shape: 'padded', bytes: 500 }, 'evt_1')).toHaveLength(500);
    const huge = streamBytes({ ...base, segments: [{ kind: 'huge', size: 1000, fill: '{' }] }, 'id');
    expect(huge.length).toBe(1001);
    expect(huge[1000]).toBe(0x0a);
  });

  it('cuts chunks at the split points with their pauses, and adds up the pauses before a byte', () => {
    const bytes = new Uint8Array(100);
    const chunks = chunksOf(bytes, {
      firstDelayMs: 7,
      splits: [
        { at: 5000, hop: 3 },
        { at: 2500, hop: -1 },
      ],
    });
    expect(chunks.map((c) => [c.bytes.length, c.hop])).toEqual([
      [25, 7],
      [25, -1],
      [50, 3],
    ]);
    expect(delayBefore(chunks, 0)).toBe(7);
    expect(delayBefore(chunks, 60)).toBe(10);
    expect(chunksOf(new Uint8Array(0), { firstDelayMs: 1, splits: [] })).toEqual([]);
  });

  it('round-trips every generated stream through the script encoding, with estimates that bound the size', () => {
    fc.assert(
      fc.property(hostileStreamArb({ ...IN_PROCESS_PROFILE, frameCapBytes: 4096 }), (stream) => {
        const bytes = streamBytes(stream, 'evt_1234567890');
        const chunks = chunksOf(bytes, stream.timing);
        expect(rebuild(scriptChunks(chunks)).equals(Buffer.from(bytes))).toBe(true);
        const uncorrupted = streamBytes({ ...stream, corruptions: [] }, 'evt_1234567890');
        expect(estimatedBytes(stream)).toBeGreaterThanOrEqual(uncorrupted.length / 2);
      }),
      { seed: 42, numRuns: 300 },
    );
  });

  it('keeps long runs of one byte compact in scripts', () => {
    const bytes = Buffer.concat([Buffer.from('ab'), Buffer.alloc(1000, 0x78), Buffer.from('c')]);
    const [chunk] = scriptChunks([{ bytes, hop: 0 }]);
    expect(chunk?.pieces).toEqual([{ b64: 'YWI=' }, { fill: 0x78, size: 1000 }, { b64: 'Yw==' }]);
  });
});
