import { describe, expect, it } from 'vitest';
import type { WireFrame } from '../kit/wire-records.js';
import { frameEventProblems } from './event-schema-check.js';

const event = {
  id: 'evt-1',
  source: 'urn:example:harness',
  type: 'task.change.before',
  time: '2026-01-01T00:00:00Z',
  task: { id: 'task-1', operation: 'update', change: { status: 'done' } },
};

function frame(params: unknown): WireFrame {
  const text = JSON.stringify({ jsonrpc: '2.0', method: 'hooks/observe', params });
  return { delivery: 1, bytes: { text } } as unknown as WireFrame;
}

const keys = (f: WireFrame) => frameEventProblems(f, 'hooks/observe').map((p) => p.rule);

describe('frameEventProblems', () => {
  it('finds nothing in an event valid against its schema', () => {
    expect(keys(frame({ protocolVersion: 'draft', event }))).toEqual([]);
  });

  it('names each payload violation under event.payload', () => {
    const { operation: _o, ...task } = event.task;
    const problems = frameEventProblems(frame({ event: { ...event, task } }), 'hooks/observe');
    expect(problems.map((p) => p.rule)).toEqual(['event.payload']);
    expect(problems[0]?.message).toContain('$.params.event.task.operation');
  });

  it('leaves content and extension keys to their own cases, and reports a frame without an event', () => {
    expect(keys(frame({ event: { ...event, extensions: { plain: 1 } } }))).toEqual([]);
    expect(keys(frame({}))).toEqual(['event.payload']);
    expect(keys({ delivery: 1, bytes: { text: '{' } } as unknown as WireFrame)).toEqual(['rpc.envelope']);
  });
});
