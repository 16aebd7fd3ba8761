import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from './run.js';

function fakeIo(argv: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  return {
    io: {
      argv,
      env: {},
      cwd: process.cwd(),
      stdin: new PassThrough(),
      stdout,
      stderr,
      signal: new AbortController().signal,
    },
    out: () => out,
    err: () => err,
  };
}

describe('cli run', () => {
  it('prints usage on stderr and exits 2 with no command: a bare call is a usage error', async () => {
    const f = fakeIo([]);
    expect(await run(f.io)).toBe(2);
    expect(f.err()).toContain('Usage: ahp-conformance <command>');
    expect(f.out()).toBe('');
  });

  it('prints usage on stdout and exits 0 when help is asked for', async () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const f = fakeIo(argv);
      expect(await run(f.io)).toBe(0);
      expect(f.out()).toContain('Usage: ahp-conformance <command>');
      expect(f.err()).toBe('');
    }
  });

  it('prints the package version', async () => {
    const f = fakeIo(['--version']);
    expect(await run(f.io)).toBe(0);
    expect(f.out().trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('names an unknown command in one sentence and exits 2', async () => {
    const f = fakeIo(['frobnicate']);
    expect(await run(f.io)).toBe(2);
    expect(f.err()).toMatch(/unknown command "frobnicate"/);
    expect(f.err().trim().split('\n')).toHaveLength(1);
  });
});
