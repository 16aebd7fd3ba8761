/**
 * A stdio mock deciding in-process: its own session (per-process engine state), for a mock run
 * without a control server, or with a control server it hosts itself.
 */
import type { ExitReport, StdioLink } from './stdio-shell.js';
import type { MockSession } from './session.js';

/** Hooks for whoever keeps the process list (a control server hosted by the same process). */
export interface ProcessEvents {
  started(pid: number): void;
  exited(pid: number, report: ExitReport): void;
}

/** A link that steps frames on `session` in this process. */
export function localLink(session: MockSession, events?: ProcessEvents): StdioLink {
  let pid = 0;
  return {
    start(context) {
      pid = context.pid;
      events?.started(pid);
      const result = session.start({ transport: 'stdio', connectionId: String(pid), at: context.at });
      return Promise.resolve({ settings: session.scenario.process ?? {}, actions: result.actions });
    },
    step(frame) {
      return Promise.resolve(session.step(frame).actions);
    },
    stepNow(frame) {
      return session.step(frame).actions;
    },
    exited(report) {
      events?.exited(pid, report);
      return Promise.resolve();
    },
  };
}
