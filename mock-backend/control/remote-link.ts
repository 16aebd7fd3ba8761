/**
 * A stdio mock deciding through its control server: the server owns scenario, engine state and
 * recordings, so attempts are counted across every process of a run (per_event spawns one per event).
 */
import { wallAt, type Clock } from '../../protocol/clock.js';
import type { ProcessSettings, RecordedAction } from '../model.js';
import type { LinkStep, StdioLink } from '../shells/stdio-shell.js';
import type { ControlClient } from './control-client.js';
import { actionsFromWire, frameToWire, type WirePerformed } from './wire.js';

/** Bound on the exit report: the process is ending and must not wait long for a busy server. */
export const EXIT_REPORT_TIMEOUT_MS = 2_000;

/**
 * A link that steps every frame on the control server behind `client`. What the process carried
 * out travels with its next call (the next frame's step, or the exit report) rather than in a
 * call of its own: one more request per frame would queue before the next frame's step.
 */
export function remoteLink(client: ControlClient, clock: Clock): StdioLink {
  let pid = 0;
  let unsent: WirePerformed[] = [];
  const noted =
    (delivery: number, epoch: number, connectionId: string) =>
    (index: number, startedAt: number): void => {
      unsent.push({
        delivery,
        epoch,
        connectionId,
        index,
        at: { monotonic: startedAt, wall: wallAt(clock, startedAt) },
      });
    };
  const takeUnsent = (): { performed?: WirePerformed[] } => {
    if (unsent.length === 0) return {};
    const performed = unsent;
    unsent = [];
    return { performed };
  };
  return {
    async start(context) {
      pid = context.pid;
      const answer = (await client.call('POST', '/processes', { pid, at: context.at })) as {
        settings?: ProcessSettings;
        actions?: RecordedAction[];
        epoch?: number;
      };
      const begun: LinkStep & { settings: ProcessSettings } = {
        settings: answer.settings ?? {},
        actions: actionsFromWire(answer.actions ?? []),
      };
      if (answer.epoch !== undefined) begun.performed = noted(0, answer.epoch, String(pid));
      return begun;
    },
    async step(frame) {
      const answer = (await client.call('POST', '/step', { frame: frameToWire(frame), ...takeUnsent() })) as {
        actions?: RecordedAction[];
        delivery?: number;
        epoch?: number;
      };
      const decided: LinkStep = { actions: actionsFromWire(answer.actions ?? []) };
      if (answer.delivery !== undefined && answer.epoch !== undefined) {
        decided.performed = noted(answer.delivery, answer.epoch, frame.connectionId);
      }
      return decided;
    },
    async stdinEnded(report) {
      try {
        await client.call('POST', `/processes/${pid}/stdin-end`, report, EXIT_REPORT_TIMEOUT_MS);
      } catch {
        // The process goes on either way; its entry in the list then shows no EOF.
      }
    },
    async exited(report) {
      try {
        await client.call(
          'POST',
          `/processes/${pid}/exit`,
          { ...report, ...takeUnsent() },
          EXIT_REPORT_TIMEOUT_MS,
        );
      } catch {
        // The process ends either way; a list without its exit still shows it as gone.
      } finally {
        client.close();
      }
    },
  };
}
