// An in-memory CliIo for in-process command tests: captured stdout/stderr, a fixed cwd and env.
import { PassThrough } from 'node:stream';
import type { CliIo } from '../io.js';

/** A fake I/O plus readers of what the command wrote. */
export interface FakeIo {
  io: CliIo;
  out(): string;
  err(): string;
}

/** Builds a CliIo over memory streams; `signal` lets a test interrupt a long command. */
export function fakeIo(
  argv: string[],
  options: { cwd?: string; env?: Record<string, string | undefined>; signal?: AbortSignal } = {},
): FakeIo {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  return {
    io: {
      argv,
      env: options.env ?? {},
      cwd: options.cwd ?? process.cwd(),
      stdin: new PassThrough(),
      stdout,
      stderr,
      signal: options.signal ?? new AbortController().signal,
    },
    out: () => out,
    err: () => err,
  };
}
