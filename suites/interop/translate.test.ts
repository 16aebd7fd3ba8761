import { describe, expect, it } from 'vitest';
import type { InterceptScenario } from './format.js';
import { capabilityDifference } from './capabilities.js';
import { PREFIX_STOP_REASON, prefixesFor, replyBehaviour, translateScenario } from './translate.js';
import { scenarioEvent } from './event-identity.js';
import { scenarioBackends } from './run.js';
import { scenarioRequirements, unmappedTags, TAG_REQUIREMENTS, REQUIREMENT_RULES } from './requirements.js';
import { requirementById } from '../../protocol/requirements.js';
import { harnessRule } from '../harness/kit/rules.js';
import { FULL_CAPABILITIES, interceptScenario, INPUT } from './test-support/samples.js';

const scenario = (...args: Parameters<typeof interceptScenario>) =>
  interceptScenario(...args) as unknown as InterceptScenario;

const scenarioEventOf = (plan: ReturnType<typeof translateScenario>, prefix: string, n: number) =>
  scenarioEvent(plan.payload, prefix, n, plan.eventType);

describe('prefixesFor: the interceptors that make an incoming state', () => {
  it('makes nothing of an empty state or none', () => {
    expect(prefixesFor(undefined)).toEqual([]);
    expect(prefixesFor({ permission: 'none', candidate: null })).toEqual([]);
  });

  it('makes a candidate with an earlier return, then the permission, then a flow stop', () => {
    const links = prefixesFor({
      permission: 'ask',
      candidate: { value: { hit: 1 }, provenance: { requestId: 'e' } },
    });
    expect(links.map((l) => l.effect)).toEqual([{ type: 'return', value: { hit: 1 } }, { type: 'ask' }]);
    // A stop without its reason would be rejected whole: the reason must be there, as text.
    expect(
      prefixesFor({ permission: 'allow', candidate: null, flow: 'stop' }).map((l) => l.effect),
    ).toStrictEqual([{ type: 'allow' }, { type: 'flow', operation: 'stop', reason: PREFIX_STOP_REASON }]);
    expect(PREFIX_STOP_REASON).toMatch(/\w/);
  });

  it('leaves a host deny to the host permission, not to an interceptor', () => {
    const plan = translateScenario(scenario('d', {}, { state: { permission: 'deny', candidate: null } }));
    expect(plan.prefixes).toEqual([]);
    expect(plan.hostPermission).toBe('deny');
  });
});

describe('translateScenario', () => {
  it('names the case by set and id, keeps the payload without identities and the original input', () => {
    const plan = translateScenario(scenario('plain'), 'scenarios');
    expect(plan.name).toBe('interop/scenarios/plain');
    expect(plan.payload).toEqual({ tool: { name: 'reader', input: INPUT } });
    expect(plan.originalInput).toEqual(INPUT);
    expect(plan.asked).toBe(true);
    expect(plan.expect).toEqual({ kind: 'outcome', outcome: expect.objectContaining({ decision: 'allow' }) });
  });

  it('does not ask the scenario backend after an incoming flow stop', () => {
    const plan = translateScenario(
      scenario('s', {}, { state: { permission: 'none', candidate: null, flow: 'stop' } }),
    );
    expect(plan.asked).toBe(false);
  });

  it('expects a whole rejection, with the host outcome as the alternative where the scenario has one', () => {
    const host = { decision: 'allow', executed: false, messages: ['m'] };
    const s = scenario('r', {
      expectError: true,
      hostExpected: host,
      tags: ['atomic-rejection', 'application-invalid'],
    });
    delete (s as { expected?: unknown }).expected;
    const plan = translateScenario(s);
    expect(plan.expect).toEqual({ kind: 'rejection', host });
    expect(plan.rule).toBe('edit.outcome');
  });
});

describe('replyBehaviour', () => {
  it('answers under the id of the request it answers when the response answered the scenario request', () => {
    const text = (
      replyBehaviour({ jsonrpc: '2.0', id: 'x', result: { effects: [] } }, 'x') as {
        chunks: { text: string }[];
      }
    ).chunks[0]?.text;
    expect(text).toBe('{"id":{{request.id}},"jsonrpc":"2.0","result":{"effects":[]}}\n');
  });

  it('keeps a response under another id verbatim (its scenario tests that)', () => {
    const response = { jsonrpc: '2.0', id: 'other', result: {} };
    expect(replyBehaviour(response, 'x')).toEqual({
      kind: 'raw',
      chunks: [{ text: `${JSON.stringify(response)}\n` }],
    });
  });
});

describe('capabilityDifference', () => {
  const effects = [{ type: 'modify', target: 'input', operation: 'merge', value: {} }];

  it('agrees when the harness offers what the scenario offers for each effect of the response', () => {
    expect(capabilityDifference(FULL_CAPABILITIES, FULL_CAPABILITIES, effects)).toBeUndefined();
    expect(capabilityDifference(FULL_CAPABILITIES, { effects: ['deny'] }, [])).toBeUndefined();
  });

  it('names an effect kind the harness withheld or offered against the scenario', () => {
    expect(
      capabilityDifference(FULL_CAPABILITIES, { effects: ['deny'] }, [{ type: 'message', text: 'm' }]),
    ).toBe(
      "the scenario offers the message effect, but the harness withheld it on the scenario backend's request",
    );
    expect(
      capabilityDifference({ effects: ['deny'] }, FULL_CAPABILITIES, [{ type: 'return', value: 1 }]),
    ).toMatch(/the scenario withholds the return effect, but the harness offered it/);
  });

  it('names a modify operation and a continuation allowance that differ', () => {
    const noMerge = { ...FULL_CAPABILITIES, modify: { input: { replace: true } } };
    expect(capabilityDifference(FULL_CAPABILITIES, noMerge, effects)).toMatch(
      /offers modify merge of input, but the harness withheld/,
    );
    const flow = (remaining: number) => ({
      effects: ['flow'],
      flow: { operations: ['stop', 'continue'], remainingContinuations: remaining },
    });
    expect(capabilityDifference(flow(2), flow(1), [{ type: 'flow', operation: 'continue' }])).toMatch(
      /advertises 2 for the flow continuation allowance \(flow\.remainingContinuations\), the harness 1/,
    );
  });
});

describe('the requirement table', () => {
  it('maps every tag to one of our requirements, each with a rule of that requirement', () => {
    for (const [, id] of TAG_REQUIREMENTS) if (id !== '') expect(requirementById(id), id).toBeDefined();
    for (const [id, key] of Object.entries(REQUIREMENT_RULES)) expect(harnessRule(key).requirement).toBe(id);
    expect(scenarioRequirements(['negative', 'capability-invalid', 'atomic-rejection'])).toEqual([
      'AHP-EDIT-001',
      'AHP-CAP-001',
    ]);
    expect(scenarioRequirements(['precedence', 'serial-pipeline'])).toEqual(['AHP-COMP-001']);
    expect(unmappedTags(['flow', 'brand-new'])).toEqual(['brand-new']);
  });
});

describe('the call a scenario makes', () => {
  it('raises a tool event with unique identities and its payload, a turn event with its type', () => {
    const tool = scenarioEventOf(translateScenario(scenario('t')), 'p', 3);
    expect(tool).toEqual({
      tool: { name: 'reader', input: INPUT },
      id: 'evt-p-3',
      session: { id: 'sess-p' },
      call: { id: 'call-p-3' },
    });
    const finish = scenario(
      'f',
      {},
      {
        event: {
          id: 'f',
          type: 'turn.finish.before',
          session: { id: 's' },
          turn: { id: 't1' },
          outcome: 'completed',
        },
      },
    );
    expect(scenarioEventOf(translateScenario(finish), 'p', 4)).toEqual({
      turn: { id: 't1' },
      outcome: 'completed',
      id: 'evt-p-4',
      session: { id: 'sess-p' },
      type: 'turn.finish.before',
    });
  });

  it('registers the prefixes fail-closed before the scenario backend, for the scenario event only', () => {
    const p = translateScenario(scenario('c', {}, { state: { permission: 'ask', candidate: { value: 1 } } }));
    const backends = scenarioBackends(p, 1000);
    expect(backends.map((b) => b.replies[0])).toEqual([
      { kind: 'respond', effects: [{ type: 'return', value: 1 }] },
      { kind: 'respond', effects: [{ type: 'ask' }] },
      p.reply,
    ]);
    for (const b of backends) {
      expect(b.subscriptions).toEqual([
        { mode: 'intercept', policy: 'fail-closed', timeoutMs: 1000, events: ['tool.before'] },
      ]);
    }
  });
});
