import { describe, expect, it } from 'vitest';
import { validateInterceptRequest, validateObserveNotification } from '../../protocol/messages.js';
import type { JsonObject, JsonValue } from '../../protocol/json.js';
import {
  ALLOW_INPUT,
  FrameFactory,
  UNKNOWN_EVENT_TYPE,
  UNKNOWN_FIELD,
  UNKNOWN_METHOD,
  UNSUPPORTED_VERSION,
} from './frames.js';

const DENY_INPUT = { command: 'rm -rf /' };
const factory = () => new FrameFactory(DENY_INPUT, () => Date.UTC(2026, 0, 2, 3, 4, 5));
const parse = (text: string) =>
  JSON.parse(text) as JsonObject & { params: JsonObject & { event: JsonObject } };

describe('frame factory', () => {
  it('builds valid draft tool.before requests whose id is the event id, one line each', () => {
    const f = factory();
    for (const input of ['allow', 'deny'] as const) {
      const frame = f.build({ send: 'intercept', input });
      expect(frame.text).not.toContain('\n');
      const message = parse(frame.text);
      expect(validateInterceptRequest(message as JsonValue)).toEqual([]);
      expect(message.id).toBe(frame.id);
      expect(message.params.event.id).toBe(frame.id);
      expect((message.params.event.tool as JsonObject).input).toEqual(
        input === 'deny' ? DENY_INPUT : ALLOW_INPUT,
      );
      expect(message.params.capabilities).toEqual({ effects: ['deny'] });
    }
  });

  it('gives every request fresh identities, and a repeat the exact bytes of the earlier frame', () => {
    const f = factory();
    const a = f.build({ send: 'intercept', input: 'allow' });
    const b = f.build({ send: 'intercept', input: 'allow' });
    const again = f.build({ send: 'repeat', of: 0 });
    expect(b.id).not.toBe(a.id);
    expect((parse(b.text).params.event.call as JsonObject).id).not.toBe(
      (parse(a.text).params.event.call as JsonObject).id,
    );
    expect(again).toEqual(a);
    expect(new FrameFactory(undefined, Date.now).build({ send: 'intercept', input: 'allow' }).id).not.toBe(
      a.id,
    );
  });

  it('adds unknown fields exactly where asked', () => {
    const f = factory();
    const m = parse(
      f.build({ send: 'intercept', input: 'allow', unknownFieldsAt: ['params', 'session', 'capabilities'] })
        .text,
    );
    expect(m.params[UNKNOWN_FIELD]).toBeDefined();
    expect((m.params.event.session as JsonObject)[UNKNOWN_FIELD]).toBeDefined();
    expect((m.params.capabilities as JsonObject)[UNKNOWN_FIELD]).toBeDefined();
    expect(m.params.event[UNKNOWN_FIELD]).toBeUndefined();
    expect((m.params.event.tool as JsonObject)[UNKNOWN_FIELD]).toBeUndefined();
  });

  it('builds the unprocessable requests and a valid notification without an id', () => {
    const f = factory();
    expect(
      parse(f.build({ send: 'intercept', input: 'allow', protocolVersion: UNSUPPORTED_VERSION }).text).params
        .protocolVersion,
    ).toBe(UNSUPPORTED_VERSION);
    expect(
      parse(f.build({ send: 'intercept', input: 'allow', eventType: UNKNOWN_EVENT_TYPE }).text).params.event
        .type,
    ).toBe(UNKNOWN_EVENT_TYPE);
    const method = f.build({ send: 'method', method: UNKNOWN_METHOD });
    expect(parse(method.text)).toMatchObject({ jsonrpc: '2.0', id: method.id, method: UNKNOWN_METHOD });
    const observe = f.build({ send: 'observe' });
    expect(observe.kind).toBe('notification');
    expect(observe.id).toBeUndefined();
    expect(validateObserveNotification(JSON.parse(observe.text) as JsonValue)).toEqual([]);
  });

  it('refuses a deny-path frame without a deny input and a repeat of a step not built yet', () => {
    expect(() => new FrameFactory(undefined, Date.now).build({ send: 'intercept', input: 'deny' })).toThrow(
      /--deny-input/,
    );
    expect(() => factory().build({ send: 'repeat', of: 0 })).toThrow(/not been built/);
  });
});
