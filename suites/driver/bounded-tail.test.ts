import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedTail } from './bounded-tail.js';

describe('BoundedTail', () => {
  it('keeps everything under the limit', () => {
    const tail = new BoundedTail(16);
    tail.push(Buffer.from('abc'));
    tail.push(Buffer.from('def'));
    expect(tail.text()).toBe('abcdef');
    expect(tail.dropped).toBe(0);
  });

  it('keeps exactly the last bytes of any sequence of chunks', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.array(fc.uint8Array({ maxLength: 30 })),
        (limit, chunks) => {
          const tail = new BoundedTail(limit);
          for (const c of chunks) tail.push(c);
          const all = Buffer.concat(chunks.map((c) => Buffer.from(c)));
          const expected = all.subarray(Math.max(0, all.length - limit));
          expect(
            Buffer.from(tail.text(), 'utf8').equals(Buffer.from(expected.toString('utf8'), 'utf8')),
          ).toBe(true);
          expect(tail.dropped).toBe(all.length - expected.length);
        },
      ),
    );
  });

  it('gives what was pushed after a mark, within the kept bytes', () => {
    const tail = new BoundedTail(8);
    tail.push(Buffer.from('abc'));
    const mark = tail.total;
    tail.push(Buffer.from('def'));
    expect(tail.textSince(mark)).toBe('def');
    tail.push(Buffer.from('ghijkl'));
    // 'def' partly dropped: what is kept of the bytes after the mark.
    expect(tail.textSince(mark)).toBe('efghijkl');
    expect(tail.textSince(tail.total)).toBe('');
  });
});
