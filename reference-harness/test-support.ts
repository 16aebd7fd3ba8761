import type { Clock } from '../protocol/clock.js';
import type { FailurePolicy } from '../protocol/failure-classes.js';
import type { JsonValue } from '../protocol/json.js';
import type { FakeTransport } from './fake-transport.js';
import { resultFor, type FakeStep } from './fake-transport.js';
import type { HarnessOptions } from './options.js';
import type { InvokeInput } from './event.js';

/** A subscription in a test registration: an interceptor with its policy and timeout, or an observer. */
export type SubSpec =
  | { mode: 'intercept'; policy: FailurePolicy; timeoutMs?: number; events?: string[] }
  | { mode: 'observe'; events?: string[] };

/** Builds a valid registration with one persistent-stdio backend per entry (tests inject transports). */
export function registrationOf(backends: Array<{ id: string; subs: SubSpec[] }>): JsonValue {
  return {
    protocolVersion: 'draft',
    hooks: backends.map((b) => ({
      id: b.id,
      transport: { type: 'stdio', command: 'unused-in-tests', lifecycle: 'persistent' },
      subscriptions: b.subs.map((s) =>
        s.mode === 'intercept'
          ? {
              events: s.events ?? ['tool.before'],
              mode: 'intercept',
              timeoutMs: s.timeoutMs ?? 100,
              failurePolicy: s.policy,
              content: { default: 'omit' },
            }
          : { events: s.events ?? ['tool.before'], mode: 'observe', content: { default: 'omit' } },
      ),
    })),
  };
}

/** A `tool.before` input with a fixed event id and time, so frames are comparable. */
export function toolCall(n = 1): InvokeInput {
  return {
    session: { id: 'sess_1' },
    call: { id: `call_${n}` },
    tool: { name: 'Bash', input: { command: 'git push --force' } },
    eventId: `evt_${n}`,
    time: '2026-01-01T00:00:00Z',
  };
}

/** Test options: the clock, a fixed source, and the given transports. */
export function optionsFor(
  clock: Clock,
  registration: JsonValue,
  transports: Record<string, FakeTransport>,
  extra: Partial<HarnessOptions> = {},
): HarnessOptions {
  return {
    registration,
    clock,
    source: 'urn:uuid:00000000-0000-4000-8000-00000000000a',
    transports,
    ...extra,
  };
}

/** Fake-backend scripts for common replies. */
export const steps = {
  none:
    (afterMs?: number) =>
    (frame: string): FakeStep => ({
      kind: 'reply',
      message: resultFor(frame, []),
      ...(afterMs === undefined ? {} : { afterMs }),
    }),
  deny:
    (reason = 'Blocked by policy.') =>
    (frame: string): FakeStep => ({
      kind: 'reply',
      message: resultFor(frame, [{ type: 'deny', reason }]),
    }),
  effects:
    (effects: JsonValue[]) =>
    (frame: string): FakeStep => ({ kind: 'reply', message: resultFor(frame, effects) }),
  raw: (message: JsonValue) => (): FakeStep => ({ kind: 'reply', message }),
  hang: () => (): FakeStep => ({ kind: 'hang' }),
};
