import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../protocol/json.js';
import type { InvokeResult } from '../../driver/index.js';
import { setBackendId } from '../kit/backend-set.js';
import { decodeFrames } from '../kit/wire-records.js';
import { EDIT_CASES, ORIGINAL_INPUT } from './edit-case-data.js';
import { chainProblems, type ChainRun } from './edit-judge.js';

/** A recorded intercept request of call-1 carrying `input`, as the mock records it. */
function requestWith(delivery: number, input: JsonValue) {
  const message = {
    jsonrpc: '2.0',
    id: 'evt-1',
    method: 'hooks/intercept',
    params: {
      protocolVersion: 'draft',
      event: { id: 'evt-1', call: { id: 'call-1' }, tool: { name: 'Bash', input } },
    },
  };
  return {
    type: 'inbound' as const,
    delivery,
    kind: 'request' as const,
    method: 'hooks/intercept',
    transport: 'http' as const,
    connectionId: 'c',
    at: { monotonic: delivery, wall: delivery },
    attempt: 1,
    rule: 0,
    planned: true,
    bytes: { text: JSON.stringify(message) },
    behaviour: { kind: 'respond' as const },
  };
}

describe('chainProblems', () => {
  const replace = EDIT_CASES.find((c) => c.label.startsWith('replace/'));
  const answer: InvokeResult = {
    decision: 'continue',
    synthetic: false,
    interrupted: false,
    audit: [{ backendId: setBackendId(1), outcome: 'effects' }],
  };
  /** Interceptor i received the i-th input. */
  const runWith = (inputs: JsonValue[]): ChainRun => {
    const frames = decodeFrames(inputs.map((input, i) => requestWith(i + 1, input)));
    return { answer, firstId: setBackendId(1), requests: frames.map((f) => [f]), notifications: [] };
  };

  it('passes a chain where each interceptor saw the accepted input of the one before', () => {
    if (!replace) throw new Error('no replace case');
    expect(chainProblems(runWith([...replace.expect.inputs]), replace.expect)).toEqual([]);
  });

  it('fails a chain where a later interceptor saw the original input', () => {
    if (!replace) throw new Error('no replace case');
    const [, , third] = replace.expect.inputs;
    const problems = chainProblems(
      runWith([ORIGINAL_INPUT, ORIGINAL_INPUT, third as JsonValue]),
      replace.expect,
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toMatch(/second interceptor was sent tool.input/);
    expect(problems[0]?.rule).toBe('edit.passed-on');
  });

  it('fails a response applied in part or a policy applied twice', () => {
    const atomic = EDIT_CASES.find((c) => c.label.startsWith('atomic/policy:fail-open/'));
    if (!atomic) throw new Error('no atomic case');
    const partial = runWith([ORIGINAL_INPUT, { command: 'ls /srv', note: 'first replacement' }]);
    partial.answer = { ...answer, audit: [{ backendId: setBackendId(1), outcome: 'effects' }] };
    const problems = chainProblems(partial, atomic.expect);
    expect(problems.some((p) => p.message.includes('audit outcome was effects'))).toBe(true);
    expect(problems.some((p) => p.message.includes('second interceptor was sent'))).toBe(true);
    const twice = chainProblems(runWith([ORIGINAL_INPUT, ORIGINAL_INPUT, ORIGINAL_INPUT]), atomic.expect);
    expect(twice.some((p) => p.message.includes('recorded 3 intercept request(s)'))).toBe(true);
  });
});
