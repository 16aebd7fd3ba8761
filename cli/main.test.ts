import { afterEach, describe, expect, it, vi } from 'vitest';
import { internalError } from './main.js';

describe('internalError', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is exit 3 with one sentence, the stack trace only on request', () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    expect(internalError(new Error('vitest could not start\nmore detail'), false)).toBe(3);
    expect(written).toEqual([
      'ahp-conformance: the run could not be completed (vitest could not start); this is a fault of ahp-conformance, not of the target: rerun with AHP_CONFORMANCE_DEBUG=1 for the stack trace and report it.\n',
    ]);
    written.length = 0;
    internalError(new Error('boom'), true);
    expect(written[1]).toMatch(/^Error: boom\n\s+at /);
  });
});
