/**
 * A stdio mock deciding in-process: its own session (per-process engine state), for a mock run
 * without a control server, or with a control server it hosts itself.
 */
import type { InboundFrame } from '../model.js';
import type { ExitReport, LinkStep, StdioLink } from './stdio-shell.js';
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
      const connectionId = String(pid);
      const result = session.start({ transport: 'stdio', connectionId, at: context.at });
      return Promise.resolve({
        settings: session.scenario.process ?? {},
        actions: result.actions,
        performed: session.performedFor(0, connectionId),
      });
    },
    step(frame) {
      return Promise.resolve(stepOn(session, frame));
    },
    stepNow(frame) {
      return stepOn(session, frame);
    },
    exited(report) {
      events?.exited(pid, report);
      return Promise.resolve();
    },
  };
}

/** A frame stepped on `session`, with what the shell needs to note its actions as carried out. */
function stepOn(session: MockSession, frame: InboundFrame): LinkStep {
  const { actions, delivery } = session.step(frame);
  return { actions, performed: session.performedFor(delivery, frame.connectionId) };
}
