import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { bundleIsFresh } from './bundles.js';
import { COMMANDS } from './commands/index.js';

const BIN = fileURLToPath(new URL('../bin/ahp-conformance.mjs', import.meta.url));

// The CLI's tests run its source; users run dist/cli.mjs, split into chunks that load per command.
// A module that finds a file beside itself (package.json, the suites) must find it from whichever
// chunk it landed in: loading each command from the bundle is what shows that.
describe('the bundled CLI (dist/cli.mjs, built by the test setup)', () => {
  it('is the one the bin runs', () => {
    expect(bundleIsFresh('cli.mjs')).toBe(true);
  });

  it('prints its version without loading any command', async () => {
    const { stdout, exitCode } = await execa(process.execPath, [BIN, '--version'], { reject: false });
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it.each(COMMANDS.map((c) => c.name))('loads the %s command from its chunk', async (name) => {
    const command = await COMMANDS.find((c) => c.name === name)?.load();
    const { stdout, stderr, exitCode } = await execa(process.execPath, [BIN, name, '--help'], {
      reject: false,
    });
    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    expect(stdout.trim()).toBe(command?.help.trim());
  });
});
