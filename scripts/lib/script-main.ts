import { pathToFileURL } from 'node:url';

/** What a script reads and writes, so a test can run it without the real process. */
export interface ScriptIo {
  argv: readonly string[];
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}

/** The real process's arguments and console, for a script run as a program. */
export function consoleIo(): ScriptIo {
  return {
    argv: process.argv.slice(2),
    stdout: (line) => console.log(line),
    stderr: (line) => console.error(line),
  };
}

/** True when the module at `moduleUrl` is the script node was started with, not one a test imported. */
export function isMainModule(moduleUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && moduleUrl === pathToFileURL(entry).href;
}

/** Ends a script with `run`'s exit code; a throw prints one line (or its stack) and exits 1. */
export function exitWith(run: Promise<number>, options: { stack?: boolean } = {}): void {
  run.then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      const text =
        error instanceof Error
          ? options.stack
            ? (error.stack ?? error.message)
            : error.message
          : String(error);
      console.error(text);
      process.exitCode = 1;
    },
  );
}

/** A flag SIGINT or SIGTERM sets, so a long script stops after the step in progress; `release` unhooks it. */
export function stopOnSignal(message: string): { readonly stopped: boolean; release(): void } {
  let stopped = false;
  const stop = (): void => {
    stopped = true;
    console.log(message);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    get stopped() {
      return stopped;
    },
    release() {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}
