import { describe, expect, it } from 'vitest';
import { abandonedFileSystemSteps, bounded, FileSystemStepTimedOut } from './file-system-bound.js';

/** Far below the real bound, so the test waits little; far above a settled promise's turn. */
const SHORT_BOUND_MS = 50;

describe('bounded file-system steps', () => {
  it('gives up a step that never settles, with ETIMEDOUT, and counts it as abandoned', async () => {
    const before = abandonedFileSystemSteps();
    const never = new Promise<never>(() => undefined);
    const error: unknown = await bounded(never, SHORT_BOUND_MS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileSystemStepTimedOut);
    expect(error).toMatchObject({ code: 'ETIMEDOUT', ms: SHORT_BOUND_MS });
    expect(abandonedFileSystemSteps()).toBe(before + 1);
  });

  it('passes a step that settles in time through, value or error, and abandons nothing', async () => {
    const before = abandonedFileSystemSteps();
    await expect(bounded(Promise.resolve(7), SHORT_BOUND_MS)).resolves.toBe(7);
    await expect(bounded(Promise.reject(new Error('EACCES')), SHORT_BOUND_MS)).rejects.toThrow('EACCES');
    await new Promise((r) => setTimeout(r, SHORT_BOUND_MS * 2));
    expect(abandonedFileSystemSteps()).toBe(before);
  });
});
