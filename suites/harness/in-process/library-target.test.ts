import { describe, expect, it } from 'vitest';
import { createHarness } from '../../../reference-harness/index.js';
import { libraryHarness } from './library-target.js';

const target = (command: string[]) => ({ kind: 'driver' as const, command, label: 'test' });

describe('libraryHarness', () => {
  it('is the reference library for the bundled reference driver', async () => {
    const resolved = await libraryHarness(target(['node', '/x/bin/ahp-reference-driver.mjs']));
    expect(resolved).toEqual({ factory: createHarness });
  });

  it("is a broken twin's library form for that twin, launched or bundled", async () => {
    for (const command of [
      ['node', '/x/fixtures/harnesses/run-twin.mjs', 'auth-callback-unchecked'],
      [
        '/usr/bin/node',
        '/x/node_modules/.cache/ahp-conformance/broken-twins-123.mjs',
        'shared-auth-first-caller-cancels',
      ],
    ]) {
      const resolved = await libraryHarness(target(command));
      expect('factory' in resolved && resolved.factory !== createHarness).toBe(true);
    }
  });

  it('leaves a twin without a library form, and any other driver, untested', async () => {
    const twin = await libraryHarness(target(['node', 'fixtures/harnesses/run-twin.mjs', 'budget-ignored']));
    expect(twin).toEqual({ unavailable: 'the broken twin "budget-ignored" has no library form' });
    for (const command of [
      ['node', 'my-driver.mjs'],
      ['node', 'fixtures/harnesses/run-twin.mjs', 'no-such-twin'],
    ]) {
      const other = await libraryHarness(target(command));
      expect('unavailable' in other && other.unavailable).toMatch(/needs the harness in-process/);
    }
  });
});
