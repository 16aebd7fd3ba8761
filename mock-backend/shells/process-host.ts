/**
 * The StdioHost of a real process. The process object is handed in by the entry point (the CLI
 * command or stdio-main.ts), so this module never reaches for the global itself.
 */
import { closeSync, openSync } from 'node:fs';
import { constants } from 'node:os';
import type { KillSignal } from '../model.js';
import { watchParent } from './owner-watch.js';
import type { StdioHost } from './stdio-shell.js';

/** Grace after a self-signal before falling back to an exit with 128 + the signal number. */
export const SELF_SIGNAL_FALLBACK_MS = 1_000;

const STDOUT_FD = 1;

/** A StdioHost over `proc` (normally `process`); `parentPid`: its parent when it started (see watchParent). */
export function processStdioHost(proc: NodeJS.Process, parentPid = proc.ppid): StdioHost {
  return {
    stdin: proc.stdin,
    stdout: proc.stdout,
    stderr: proc.stderr,
    pid: proc.pid,
    exit: (code) => proc.exit(code),
    killSelf(signal: KillSignal) {
      // Listeners would turn the signal into an event; without them the default action applies.
      proc.removeAllListeners(signal);
      proc.kill(proc.pid, signal);
      // Should the signal somehow not end us, end anyway with the conventional code.
      setTimeout(() => proc.exit(128 + (constants.signals[signal] ?? 0)), SELF_SIGNAL_FALLBACK_MS).unref();
    },
    closeStdoutDescriptor() {
      // Neither the stream nor libuv ever closes descriptors 0-2, so stdout's handle is retired
      // (it stops watching descriptor 1) and the descriptor is closed here. /dev/null then takes
      // number 1, so that no later socket or file can be given it and be written as stdout.
      const handle = (proc.stdout as unknown as { _handle?: { close?: () => void } })._handle;
      handle?.close?.();
      if (proc.platform === 'win32') return;
      try {
        closeSync(STDOUT_FD);
        const fd = openSync('/dev/null', 'w');
        if (fd !== STDOUT_FD) closeSync(fd);
      } catch {
        // Already closed, or no /dev/null: the reader has its EOF either way.
      }
    },
    trapSigterm(handler) {
      proc.removeAllListeners('SIGTERM');
      proc.on('SIGTERM', handler);
    },
    stayAlive(whenOrphaned) {
      watchParent(proc, whenOrphaned, parentPid);
    },
  };
}
