import { describe, expect, it } from 'vitest';
import { frameOf, interceptRequest } from '../engine-test-frames.js';
import { MockCore } from '../shells/mock-core.js';
import { route, type ControlState } from './control-routes.js';
import { ProcessRegistry } from './process-registry.js';
import { frameToWire } from './wire.js';

function state(): ControlState {
  return {
    core: new MockCore({ rules: [{ behaviour: { kind: 'deny' } }], process: { banner: 'hi' } }),
    registry: new ProcessRegistry(() => true),
    validate: (v) =>
      (v as { rules?: unknown } | null)?.rules
        ? { ok: true, scenario: v as never }
        : { ok: false, message: 'Scenario x is invalid at $.rules: expected an array.' },
  };
}
const at = { monotonic: 5, wall: 1000 };
const call = (s: ControlState, method: string, path: string, body?: unknown) =>
  route(s, method, new URL(path, 'http://control.invalid'), body as never);

describe('control routes', () => {
  it('registers a starting process: start actions, settings and a delivery-0 record', () => {
    const s = state();
    const r = call(s, 'POST', '/processes', { pid: 42, at });
    expect(r).toEqual({
      status: 200,
      body: {
        settings: { banner: 'hi' },
        actions: [{ type: 'write', afterMs: 0, bytes: { text: 'hi\n' } }],
        epoch: 0,
      },
    });
    expect(s.registry.list()).toEqual([{ pid: 42, startedAt: 1000, alive: true }]);
    expect(s.core.recordings()).toMatchObject([{ type: 'outbound', delivery: 0, connectionId: '42' }]);
  });

  it('steps a frame sent as JSON and answers the actions as JSON', () => {
    const s = state();
    const frame = frameToWire(frameOf(interceptRequest({ eventId: 'e' })));
    const r = call(s, 'POST', '/step', { frame });
    expect(r.status).toBe(200);
    const actions = (r.body as { actions: Array<{ type: string }> }).actions;
    expect(actions.map((a) => a.type)).toEqual(['write', 'end']);
    expect(s.core.deliveries()).toMatchObject([{ eventId: 'e', connectionId: '4242' }]);
  });

  it('notes what a process reports it carried out, with its next step or its exit, on its own clock', () => {
    const s = state();
    call(s, 'POST', '/processes', { pid: 42, at });
    const frame = frameToWire(frameOf(interceptRequest({ eventId: 'e' }), 'stdio', { at: 7 }));
    const stepped = call(s, 'POST', '/step', { frame }).body as { delivery: number; epoch: number };
    expect(stepped).toMatchObject({ delivery: 1, epoch: 0 });
    const report = (delivery: number, index: number, monotonic: number, connectionId = '4242') => ({
      delivery,
      epoch: stepped.epoch,
      connectionId,
      index,
      at: { monotonic, wall: 2000 + monotonic },
    });
    const performedAt = () =>
      s.core.recordings({ type: 'outbound' }).map((e) => (e.type === 'outbound' ? e.performedAt : null));
    // The banner and the reply's write come with the next step; a malformed report is dropped.
    call(s, 'POST', '/step', {
      frame: frameToWire(frameOf(interceptRequest({ eventId: 'f' }))),
      performed: [report(0, 0, 6, '42'), report(1, 0, 8), { delivery: 'x' }],
    });
    expect(performedAt().slice(0, 3)).toEqual([
      { monotonic: 6, wall: 2006 },
      { monotonic: 8, wall: 2008 },
      undefined,
    ]);
    // The rest comes with the exit report.
    call(s, 'POST', '/processes/42/exit', { code: 0, signal: null, performed: [report(1, 1, 8.5)] });
    expect(performedAt()[2]).toEqual({ monotonic: 8.5, wall: 2008.5 });
  });

  it('records a reported exit; ignores PIDs it never saw', () => {
    const s = state();
    call(s, 'POST', '/processes', { pid: 42, at });
    expect(call(s, 'POST', '/processes/42/exit', { code: null, signal: 'SIGTERM' }).status).toBe(200);
    call(s, 'POST', '/processes/43/exit', { code: 1, signal: null });
    expect(s.registry.list()).toMatchObject([{ pid: 42, exit: { code: null, signal: 'SIGTERM' } }]);
  });

  it('records when a process reported its stdin EOF and how many messages it had read', () => {
    const s = state();
    call(s, 'POST', '/processes', { pid: 42, at });
    const end = { at: { monotonic: 9, wall: 1004 }, messages: 1 };
    expect(call(s, 'POST', '/processes/42/stdin-end', end).status).toBe(200);
    expect(call(s, 'POST', '/processes/42/stdin-end', { at }).status).toBe(400);
    expect(s.registry.list()).toMatchObject([{ pid: 42, stdinEnd: end }]);
  });

  it('answers bad input with 400 and one sentence, unknown routes with 404, and never throws', () => {
    const s = state();
    expect(call(s, 'PUT', '/scenario', { nope: 1 })).toEqual({
      status: 400,
      body: { error: 'Scenario x is invalid at $.rules: expected an array.' },
    });
    expect(call(s, 'POST', '/step', { frame: { bytes: 'x' } }).status).toBe(400);
    expect(call(s, 'POST', '/processes', { pid: 'x' }).status).toBe(400);
    expect(call(s, 'DELETE', '/scenario').status).toBe(404);
    expect(call(s, 'GET', '/scenario/').body).toEqual(s.core.scenario);
  });

  it('replaces the scenario keeping the engine state with keepState=true, and names a bad value', () => {
    const s = state();
    const frame = frameToWire(frameOf(interceptRequest({ eventId: 'e' })));
    const once = { rules: [{ behaviour: { kind: 'deny' }, times: 1 }, { behaviour: { kind: 'hang' } }] };
    call(s, 'PUT', '/scenario', once);
    call(s, 'POST', '/step', { frame });
    expect(call(s, 'PUT', '/scenario?keepState=true', once).status).toBe(200);
    call(s, 'POST', '/step', { frame });
    expect(s.core.deliveries().map((r) => [r.rule, r.attempt])).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(call(s, 'PUT', '/scenario?keepState=yes', once)).toEqual({
      status: 400,
      body: { error: 'keepState must be "true" or "false", not "yes"' },
    });
  });

  it('filters recordings by query and resets everything', () => {
    const s = state();
    call(s, 'POST', '/processes', { pid: 42, at });
    s.core.step(frameOf(interceptRequest({ eventId: 'a' })));
    s.core.step(frameOf(interceptRequest({ eventId: 'b' }), 'http'));
    const doc = call(s, 'GET', '/recordings?transport=http&type=inbound').body as {
      format: string;
      entries: unknown[];
    };
    expect(doc.format).toBe('ahp-mock-recording');
    expect(doc.entries).toMatchObject([{ eventId: 'b', delivery: 2 }]);
    expect((call(s, 'GET', '/recordings?delivery=1').body as { entries: unknown[] }).entries).toHaveLength(3);
    call(s, 'POST', '/reset');
    expect(s.core.recordings()).toEqual([]);
    expect(s.registry.list()).toEqual([]);
  });
});
