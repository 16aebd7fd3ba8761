/**
 * A stdio mock deciding in-process: its own core (per-process engine state), for a mock run
 * without a control server, or with a control server it hosts itself.
 */
import type { InboundFrame } from '../model.js';
import type { ExitReport, LinkStep, StdinEndReport, StdioLink } from './stdio-shell.js';
import type { MockCore } from './mock-core.js';

/** Hooks for whoever keeps the process list (a control server hosted by the same process). */
export interface ProcessEvents {
  started(pid: number): void;
  exited(pid: number, report: ExitReport): void;
  stdinEnded?(pid: number, report: StdinEndReport): void;
}

/** A link that steps frames on `core` in this process. */
export function localLink(core: MockCore, events?: ProcessEvents): StdioLink {
  let pid = 0;
  return {
    start(context) {
      pid = context.pid;
      events?.started(pid);
      const connectionId = String(pid);
      const result = core.start({ transport: 'stdio', connectionId, at: context.at });
      return Promise.resolve({
        settings: core.scenario.process ?? {},
        actions: result.actions,
        performed: core.performedFor(0, connectionId),
      });
    },
    step(frame) {
      return Promise.resolve(stepOn(core, frame));
    },
    stepNow(frame) {
      return stepOn(core, frame);
    },
    exited(report) {
      events?.exited(pid, report);
      return Promise.resolve();
    },
    stdinEnded(report) {
      events?.stdinEnded?.(pid, report);
      return Promise.resolve();
    },
  };
}

/** A frame stepped on `core`, with what the shell needs to note its actions as carried out. */
function stepOn(core: MockCore, frame: InboundFrame): LinkStep {
  const { actions, delivery } = core.step(frame);
  return { actions, performed: core.performedFor(delivery, frame.connectionId) };
}
