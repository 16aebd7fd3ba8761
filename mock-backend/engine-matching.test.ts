import { describe, expect, it } from 'vitest';
import { decodeFrame } from './engine-inbound.js';
import {
  findRule,
  frameIdentities,
  jsonEqual,
  matches,
  readPath,
  type MatchFacts,
} from './engine-matching.js';
import { interceptRequest, observeNotification } from './engine-test-frames.js';
import type { Rule } from './model.js';

const facts = (value: object, extra: Partial<MatchFacts> = {}): MatchFacts => ({
  frame: decodeFrame(new TextEncoder().encode(JSON.stringify(value))),
  attempt: 1,
  delivery: 1,
  transport: 'stdio',
  ...extra,
});

describe('matching', () => {
  it('an empty match matches requests only', () => {
    expect(matches({}, facts(interceptRequest()))).toBe(true);
    expect(matches({}, facts(observeNotification()))).toBe(false);
    expect(matches({ message: 'any' }, facts(observeNotification()))).toBe(true);
    expect(matches({ message: 'notification' }, facts(interceptRequest()))).toBe(false);
    expect(matches({ message: 'any' }, { ...facts({}), frame: decodeFrame(new Uint8Array([0xff])) })).toBe(
      false,
    );
  });

  it('attempt and delivery accept a number or an inclusive range', () => {
    const f = facts(interceptRequest(), { attempt: 3, delivery: 10 });
    expect(matches({ attempt: 3 }, f)).toBe(true);
    expect(matches({ attempt: 2 }, f)).toBe(false);
    expect(matches({ attempt: { min: 2, max: 3 } }, f)).toBe(true);
    expect(matches({ attempt: { max: 2 } }, f)).toBe(false);
    expect(matches({ delivery: { min: 11 } }, f)).toBe(false);
  });

  it('field predicates: equals deep-compares; contains is substring or array membership', () => {
    const f = facts(interceptRequest({ input: { command: 'git push --force', env: [{ k: 'A' }], n: 0 } }));
    expect(matches({ fields: [{ path: 'tool.input.command', contains: 'push' }] }, f)).toBe(true);
    expect(matches({ fields: [{ path: 'tool.input.env', contains: { k: 'A' } }] }, f)).toBe(true);
    expect(matches({ fields: [{ path: 'tool.input.env', contains: { k: 'B' } }] }, f)).toBe(false);
    expect(matches({ fields: [{ path: 'tool.input.n', equals: 0 }] }, f)).toBe(true);
    expect(matches({ fields: [{ path: 'tool.input.n', contains: 0 }] }, f)).toBe(false);
    expect(matches({ fields: [{ path: 'tool.input', equals: { n: 0 } }] }, f)).toBe(false);
    expect(matches({ fields: [{ path: 'tool.missing', equals: null }] }, f)).toBe(false);
    expect(
      matches(
        {
          fields: [
            { path: 'tool.name', equals: 'Bash' },
            { path: 'tool.input.command', contains: 'nope' },
          ],
        },
        f,
      ),
    ).toBe(false);
  });

  it('readPath walks objects and array indexes, never prototype keys', () => {
    const event = { a: [{ b: 'x' }], c: null };
    expect(readPath(event, 'a.0.b')).toBe('x');
    expect(readPath(event, 'c')).toBe(null);
    expect(readPath(event, 'a.1.b')).toBeUndefined();
    expect(readPath(event, 'constructor')).toBeUndefined();
    expect(readPath(event, 'a.length')).toBeUndefined();
  });

  it('jsonEqual ignores key order and distinguishes types', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(jsonEqual([1], { 0: 1 })).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
  });

  it('findRule takes the first matching rule whose times are not used up', () => {
    const rules: Rule[] = [
      { match: { toolName: 'Read' }, behaviour: { kind: 'deny' } },
      { behaviour: { kind: 'hang' }, times: 1 },
      { behaviour: { kind: 'respond' } },
    ];
    const f = facts(interceptRequest());
    expect(findRule(rules, [0, 0, 0], f)).toBe(1);
    expect(findRule(rules, [0, 1, 0], f)).toBe(2);
    expect(findRule(rules, [], facts(interceptRequest({ tool: 'Read' })))).toBe(0);
    expect(findRule([], [], f)).toBeNull();
  });
});

describe('identity', () => {
  const request = (event: object, id: string | number = 'rpc-1') => ({
    jsonrpc: '2.0',
    id,
    method: 'hooks/intercept',
    params: { protocolVersion: 'draft', event: { type: 'tool.before', tool: { name: 'Bash' }, ...event } },
  });

  it('holds when any one identity field carries a listed value', () => {
    const identity = ['evt-9', 'call-9'];
    expect(matches({ identity }, facts(request({ id: 'evt-other' }, 'evt-9')))).toBe(true);
    expect(matches({ identity }, facts(request({ id: 'evt-9' }, 7)))).toBe(true);
    expect(matches({ identity }, facts(request({ id: 'x', call: { id: 'call-9' } }, 7)))).toBe(true);
    expect(
      matches({ identity }, facts(request({ id: 'x', tool: { name: 'Bash', callId: 'call-9' } }, 7))),
    ).toBe(true);
    expect(matches({ identity }, facts(request({ id: 'x', call: { id: 'call-8' } }, 'y')))).toBe(false);
  });

  it('reads only string values, and the identity of notifications too', () => {
    expect(matches({ identity: ['7'] }, facts(request({ id: 'x' }, 7)))).toBe(false);
    expect(matches({ identity: ['call_1'], message: 'notification' }, facts(observeNotification()))).toBe(
      true,
    );
    expect(frameIdentities(facts(interceptRequest()).frame)).toEqual(['evt_1', 'evt_1', 'call_1']);
  });
});
