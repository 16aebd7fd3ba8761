import { describe, expect, it } from 'vitest';
import { checkInterceptResult } from '../../../protocol/messages.js';
import { validateRegistration } from '../../../protocol/registration.js';
import type { JsonValue } from '../../../protocol/json.js';
import type { Capabilities } from '../../../protocol/wire-types.js';
import type { InvokeResult } from '../../driver/index.js';
import { setBackendId, startBackendSet } from '../kit/backend-set.js';
import { CaseSteps } from '../kit/step-identity.js';
import { decodeFrames } from '../kit/wire-records.js';
import { BAD_MEMBERS, EDIT_CASES, ORIGINAL_INPUT, withheldEdit } from './edit-case-data.js';
import { chainBackends, chainProblems, type ChainRun } from './edit-cases.js';

/** What the reference harness advertises at tool.before: deny, and modify of the input both ways. */
const ADVERTISED: Capabilities = {
  effects: ['deny', 'modify'],
  modify: { input: { replace: true, merge: true } },
};

const judge = (effects: JsonValue, capabilities = ADVERTISED) =>
  checkInterceptResult(
    { protocolVersion: 'draft', effects },
    { protocolVersion: 'draft', eventType: 'tool.before', capabilities },
  );

describe('AHP-EDIT-001 case data', () => {
  it('presents as valid only responses our validator accepts, and as rejected only ones it rejects', () => {
    for (const c of EDIT_CASES) {
      const [first, ...rest] = c.links;
      const check = judge(first?.effects ?? []);
      if (c.expect.first.outcome === 'effects') expect(check.ok, c.label).toBe(true);
      else expect(check, c.label).toMatchObject({ ok: false, failureClass: 'invalid-effects' });
      const later = c.label.includes('earlier-accepted-edit') ? rest.slice(1) : rest;
      for (const link of later) expect(judge(link.effects).ok, c.label).toBe(true);
    }
  });

  it('makes each bad member alone invalid, and the valid member beside it valid alone', () => {
    for (const bad of BAD_MEMBERS) expect(judge([bad.effect]).ok, bad.label).toBe(false);
    const atomic = EDIT_CASES.filter((c) => c.label.includes('/bad-member:'));
    expect(atomic).toHaveLength(2 * BAD_MEMBERS.length);
    for (const c of atomic) expect(judge([(c.links[0]?.effects ?? [])[0] as JsonValue]).ok).toBe(true);
  });

  it('rejects the second response of the case where an earlier edit must stay', () => {
    const kept = EDIT_CASES.find((c) => c.label.includes('earlier-accepted-edit'));
    expect(judge(kept?.links[1]?.effects ?? [])).toMatchObject({
      ok: false,
      failureClass: 'invalid-effects',
    });
  });

  it('sends an operation the request withholds as an unadvertised edit', () => {
    const replaceOnly: Capabilities = {
      effects: ['deny', 'modify'],
      modify: { input: { replace: true, merge: false } },
    };
    const edit = withheldEdit({ target: 'input', operation: 'merge' });
    expect(judge([edit]).ok).toBe(true);
    expect(judge([edit], replaceOnly)).toMatchObject({ ok: false, failureClass: 'invalid-effects' });
  });

  it('starts chains whose registration the protocol accepts, one backend per link and the observer', async () => {
    for (const c of EDIT_CASES) {
      const backends = chainBackends({ links: c.links, ...(c.observe ? { observe: true } : {}) }, 1000);
      expect(backends).toHaveLength(c.links.length + (c.observe ? 1 : 0));
      // The mocks check every scenario they are given, so a behaviour they refuse fails the start.
      const set = await startBackendSet('http', backends, new CaseSteps([['evt-1', 'call-1']]));
      try {
        const registration = set.registration();
        expect(validateRegistration(registration).ok, c.label).toBe(true);
        const modes = (registration.hooks as { subscriptions: { mode: string }[] }[]).map(
          (h) => h.subscriptions[0]?.mode,
        );
        expect(modes.filter((m) => m === 'observe')).toHaveLength(c.observe ? 1 : 0);
      } finally {
        await set.close();
      }
    }
  });
});

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
