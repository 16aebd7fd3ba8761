import { describe, expect, it } from 'vitest';
import { checkRequestEnvelope } from '../../protocol/jsonrpc.js';
import { validateInterceptRequest, validateObserveNotification } from '../../protocol/messages.js';
import type { JsonObject, JsonValue } from '../../protocol/json.js';
import { appliesTo, stepsFor } from './probe.js';
import { BACKEND_PROBES } from './probes-index.js';
import {
  DEFAULT_ALLOW_INPUT,
  FrameFactory,
  INVALID_REQUEST_TEXTS,
  intentOf,
  REQUEST_FLAWS,
  TOOL_FLAWS,
  UNKNOWN_EVENT_TYPE,
  UNKNOWN_FIELD,
  UNKNOWN_METHOD,
  UNPARSABLE_TEXT,
  UNSUPPORTED_VERSION,
} from './frames.js';

const DENY_INPUT = { command: 'rm -rf /' };
const ALLOW_INPUT = DEFAULT_ALLOW_INPUT;
const factory = () =>
  new FrameFactory({ allow: ALLOW_INPUT, deny: DENY_INPUT }, () => Date.UTC(2026, 0, 2, 3, 4, 5));
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
    expect(
      new FrameFactory({ allow: ALLOW_INPUT }, Date.now).build({ send: 'intercept', input: 'allow' }).id,
    ).not.toBe(a.id);
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

  it('builds the requests without params and without an event, with fresh ids, and calls them invalid', () => {
    const f = factory();
    const bare = f.build({ send: 'intercept', input: 'allow', flaw: 'no-params' });
    const eventless = f.build({ send: 'intercept', input: 'allow', flaw: 'no-event' });
    expect(JSON.parse(bare.text)).toEqual({ jsonrpc: '2.0', id: bare.id, method: 'hooks/intercept' });
    expect(JSON.parse(eventless.text)).toEqual({
      jsonrpc: '2.0',
      id: eventless.id,
      method: 'hooks/intercept',
      params: { protocolVersion: 'draft', capabilities: { effects: ['deny'] } },
    });
    expect(eventless.id).not.toBe(bare.id);
    for (const flaw of REQUEST_FLAWS) {
      expect(intentOf({ send: 'intercept', input: 'allow', flaw })).toMatchObject({ valid: false });
    }
  });

  it('builds the tool.before without a tool, and the one whose tool has no input, and calls them invalid', () => {
    const f = factory();
    const toolless = parse(f.build({ send: 'intercept', input: 'allow', flaw: 'no-tool' }).text);
    const inputless = parse(f.build({ send: 'intercept', input: 'allow', flaw: 'no-tool-input' }).text);
    expect(toolless.params.event).not.toHaveProperty('tool');
    expect(toolless.params.event.call).toBeDefined();
    expect(inputless.params.event.tool).toEqual({ name: 'Bash', kind: 'shell', origin: 'native' });
    for (const flaw of TOOL_FLAWS) {
      expect(intentOf({ send: 'intercept', input: 'allow', flaw })).toMatchObject({ valid: false });
    }
  });

  it('builds a line that is not JSON, holds no id and no newline, and must be answered with id null', () => {
    const frame = factory().build({ send: 'unparsable' });
    expect(frame).toEqual({ kind: 'request', text: UNPARSABLE_TEXT, id: null });
    expect(() => JSON.parse(frame.text) as unknown).toThrow(SyntaxError);
    expect(frame.text).not.toContain('\n');
    expect(frame.text).not.toContain('"id"');
    expect(intentOf({ send: 'unparsable' })).toEqual({ valid: false, breaks: 'it is not JSON' });
  });

  it('builds a line that is JSON but no Request object, and no Notification, and must be answered with id null', () => {
    const frame = factory().build({ send: 'invalid-request', shape: 'method-not-a-string' });
    expect(frame).toEqual({ kind: 'request', text: INVALID_REQUEST_TEXTS['method-not-a-string'], id: null });
    const value = JSON.parse(frame.text) as JsonObject;
    expect(typeof value.method).not.toBe('string');
    // An id member, so not a Notification (a Request object without one); null, so no other id.
    expect(value).toHaveProperty('id', null);
    expect(checkRequestEnvelope(value).kind).toBe('invalid');
    expect(frame.text).not.toContain('\n');
    expect(intentOf({ send: 'invalid-request', shape: 'method-not-a-string' })).toMatchObject({
      valid: false,
    });
  });

  it('builds the line null: JSON, no object at all, so no id to read', () => {
    const frame = factory().build({ send: 'invalid-request', shape: 'null' });
    expect(frame).toEqual({ kind: 'request', text: 'null', id: null });
    expect(JSON.parse(frame.text)).toBeNull();
    expect(intentOf({ send: 'invalid-request', shape: 'null' })).toEqual({
      valid: false,
      breaks: 'it is not a JSON-RPC Request object: it is the JSON value null, not an object',
    });
  });

  it('refuses a deny-path frame without a deny input and a repeat of a step not built yet', () => {
    expect(() =>
      new FrameFactory({ allow: ALLOW_INPUT }, Date.now).build({ send: 'intercept', input: 'deny' }),
    ).toThrow(/--deny-input/);
    expect(() => factory().build({ send: 'repeat', of: 0 })).toThrow(/not been built/);
  });
});

describe('every frame the backend suite sends', () => {
  const bindings = ['stdio-persistent', 'stdio-per_event', 'http'] as const;
  const allow = { command: 'git status', args: ['--short'] };

  it('is valid by our own validator where it claims to be, and invalid exactly where it says so', () => {
    let checked = 0;
    for (const probe of BACKEND_PROBES) {
      for (const binding of bindings.filter((b) => appliesTo(probe, b))) {
        const f = new FrameFactory({ allow, deny: DENY_INPUT, modify: { command: 'curl x | sh' } }, Date.now);
        for (const s of stepsFor(probe, true)) {
          const frame = f.build(s.frame);
          const spec = s.frame.send === 'repeat' ? probe.steps[s.frame.of]?.frame : s.frame;
          if (!spec) throw new Error(`${probe.name}: a repeat of a missing step`);
          const intent = intentOf(spec);
          const where = `${probe.requirement}/${binding}/${probe.name} ${frame.text}`;
          if (spec.send === 'unparsable') {
            // No validator reads it: that it is no JSON at all is what it breaks.
            expect(() => JSON.parse(frame.text) as unknown, where).toThrow(SyntaxError);
            expect(intent.valid, where).toBe(false);
            expect(s.expect, where).toBe('error');
            checked += 1;
            continue;
          }
          const message = JSON.parse(frame.text) as JsonValue;
          const violations =
            frame.kind === 'notification'
              ? validateObserveNotification(message)
              : validateInterceptRequest(message);
          if (intent.valid) expect(violations, where).toEqual([]);
          else {
            expect(violations.length, `${where} should break: ${intent.breaks}`).toBeGreaterThan(0);
            // An invalid frame is sent only where its reply must be an error, where only the
            // reply's framing and id are read (the stdout cases; a tool.before without its tool,
            // which may be refused or decided), or, as a notification, where nothing may come back.
            expect(frame.kind === 'notification' ? ['silence'] : ['error', 'reply'], where).toContain(
              s.expect,
            );
          }
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('never puts an unknown field into the closed tool or call objects', () => {
    const f = factory();
    const m = parse(
      f.build({
        send: 'intercept',
        input: 'allow',
        unknownFieldsAt: ['params', 'event', 'session', 'capabilities'],
      }).text,
    );
    expect(Object.keys(m.params.event.tool as JsonObject).sort()).toEqual([
      'input',
      'kind',
      'name',
      'origin',
    ]);
    expect(Object.keys(m.params.event.call as JsonObject)).toEqual(['id']);
    expect(validateInterceptRequest(m as JsonValue)).toEqual([]);
  });
});
