/**
 * A stdio mock deciding through its control server: the server owns scenario, engine state and
 * recordings, so attempts are counted across every process of a run (per_event spawns one per event).
 */
import type { ProcessSettings, RecordedAction } from '../model.js';
import type { StdioLink } from '../shells/stdio-shell.js';
import type { ControlClient } from './control-client.js';
import { actionsFromWire, frameToWire } from './wire.js';

/** Bound on the exit report: the process is ending and must not wait long for a busy server. */
export const EXIT_REPORT_TIMEOUT_MS = 2_000;

/** A link that steps every frame on the control server behind `client`. */
export function remoteLink(client: ControlClient): StdioLink {
  let pid = 0;
  return {
    async start(context) {
      pid = context.pid;
      const answer = (await client.call('POST', '/processes', { pid, at: context.at })) as {
        settings?: ProcessSettings;
        actions?: RecordedAction[];
      };
      return { settings: answer.settings ?? {}, actions: actionsFromWire(answer.actions ?? []) };
    },
    async step(frame) {
      const answer = (await client.call('POST', '/step', { frame: frameToWire(frame) })) as {
        actions?: RecordedAction[];
      };
      // The session is in another process, on another clock: its recording cannot show when
      // this process carried the actions out.
      return { actions: actionsFromWire(answer.actions ?? []) };
    },
    async exited(report) {
      try {
        await client.call('POST', `/processes/${pid}/exit`, report, EXIT_REPORT_TIMEOUT_MS);
      } catch {
        // The process ends either way; a list without its exit still shows it as gone.
      } finally {
        client.close();
      }
    },
  };
}
