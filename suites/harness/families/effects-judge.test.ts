import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../../protocol/json.js';
import type { InvokeResult } from '../../driver/index.js';
import type { WireFrame } from '../kit/wire-records.js';
import { EFFECTS_CASES, TOOL_CAPABILITIES, type EffectsCase } from './effects-case-data.js';
import { effectsNeeds, unservedBy } from './effects-cases.js';
import { effectsProblems, outcomeRule, type EffectsRun } from './effects-judge.js';

/** A recorded frame carrying `params` (only its bytes are read). */
const frame = (params: JsonObject): WireFrame =>
  ({
    bytes: { text: JSON.stringify({ jsonrpc: '2.0', id: 'evt-1', method: 'hooks/intercept', params }) },
  }) as unknown as WireFrame;

/** The answer and the wire a conforming harness shows for `c`, built from its expectation alone. */
function conformingRun(c: EffectsCase): EffectsRun {
  const { expect: e } = c;
  const answer: Record<string, JsonValue> = {
    decision: e.decision === 'continue-or-deny' ? 'continue' : e.decision,
    synthetic: e.synthetic ?? false,
    interrupted: false,
    eventId: 'evt-1',
    audit: [],
  };
  if (e.executed !== undefined) answer.executed = e.executed;
  if (e.permission !== undefined) answer.permission = e.permission;
  if (e.messages !== undefined) answer.messages = e.messages;
  if (e.flow !== undefined && e.flow !== 'none') answer.flow = e.flow;
  if (e.reason !== undefined) answer.reason = e.reason;
  if (e.result !== undefined && e.result !== 'none') answer.result = e.result.value;
  if (e.continuationInstructions !== undefined) answer.continuationInstructions = e.continuationInstructions;
  if (e.continuationRemaining !== undefined) answer.continuationRemaining = e.continuationRemaining;
  if (e.injections !== undefined) answer.injections = e.injections;
  return {
    answer: answer as unknown as InvokeResult,
    requests: c.links.map((_, i) =>
      i < e.asked
        ? [frame({ state: (e.states?.[i] ?? { permission: 'none', candidate: null }) as JsonValue })]
        : [],
    ),
    notifications: c.links.map((_, i) => (e.boundaryCopies?.includes(i) ? [frame({})] : [])),
  };
}

const byLabel = (label: string) => EFFECTS_CASES.find((c) => c.label === label) as EffectsCase;

describe('the effects judge', () => {
  it('finds nothing wrong with the answer and wire its expectation describes, for every case', () => {
    for (const c of EFFECTS_CASES) expect(effectsProblems(c, conformingRun(c)), c.label).toEqual([]);
  });

  it('judges every outcome member under the rule of the case, and nothing else', () => {
    const changes: [string, (a: Record<string, JsonValue>) => void][] = [
      ['return/invalidated-by-a-later-changed-input', (a) => (a.result = { lines: 12, source: 'cache' })],
      ['return/null-is-a-supplied-result', (a) => delete a.result],
      ['return/kept/not-executed-not-a-deny', (a) => (a.executed = true)],
      ['message/accumulated-across-the-chain-in-order', (a) => (a.messages = ['third note', 'first note'])],
      ['atomic/messages-of-a-rejected-response-not-shown', (a) => (a.messages = ['kept before'])],
      ['atomic/deny-in-a-rejected-response-not-applied/fail-closed', (a) => (a.synthetic = false)],
      ['permission/ask-persists-after-a-later-allow', (a) => (a.permission = 'allow')],
      ['flow-stop/reason-kept-later-interceptors-given-the-boundary', (a) => (a.reason = 'another')],
      ['continue/several-use-one-allowance-unit', (a) => (a.continuationRemaining = 0)],
      ['continue/stop-beats-continue', (a) => (a.flow = 'continue')],
      ['inject/accepted-injections-in-order', (a) => (a.injections = [])],
      ['inject/unadvertised-delivery-rejects-the-response', (a) => delete a.injections],
    ];
    for (const [label, change] of changes) {
      const c = byLabel(label);
      const run = conformingRun(c);
      change(run.answer as unknown as Record<string, JsonValue>);
      expect(
        effectsProblems(c, run).map((p) => p.rule),
        label,
      ).toEqual([outcomeRule(c)]);
    }
  });

  it('accepts a flow stop reported as a deny, and one whose reason the driver does not report', () => {
    const c = byLabel('flow-stop/reason-kept-later-interceptors-given-the-boundary');
    const run = conformingRun(c);
    Object.assign(run.answer, { decision: 'deny' });
    delete (run.answer as { reason?: string }).reason;
    expect(effectsProblems(c, run)).toEqual([]);
  });

  it('finds a later interceptor asked, a missing boundary copy and a wrong or missing state on the wire', () => {
    const stop = byLabel('flow-stop/reason-kept-later-interceptors-given-the-boundary');
    const asked = conformingRun(stop);
    asked.requests[2] = [frame({})];
    expect(effectsProblems(stop, asked).map((p) => p.rule)).toEqual(['composition.chain']);
    const uncopied = conformingRun(stop);
    uncopied.notifications[2] = [];
    expect(effectsProblems(stop, uncopied).map((p) => p.rule)).toEqual(['effects.flow']);
    const state = byLabel('state/sent-on-every-request');
    const stale = conformingRun(state);
    stale.requests[2] = [frame({ state: { permission: 'allow', candidate: null } })];
    stale.requests[1] = [frame({})];
    expect(effectsProblems(state, stale).map((p) => p.message)).toEqual([
      expect.stringContaining('second interceptor was sent no params.state'),
      expect.stringContaining('third interceptor was sent state permission "allow" and candidate null'),
    ]);
  });

  it('judges a rejected response asked onwards under atomicity, not composition', () => {
    const c = byLabel('atomic/deny-in-a-rejected-response-not-applied/fail-open');
    const run = conformingRun(c);
    run.requests[1] = [];
    expect(effectsProblems(c, run).map((p) => p.rule)).toEqual(['effects.atomic']);
  });
});

describe('what an effects case needs of the driver', () => {
  it('is features.outcomes for the outcome members, and only the wire for the control state', () => {
    expect(effectsNeeds(byLabel('return/kept/not-executed-not-a-deny')).features).toEqual(['outcomes']);
    expect(effectsNeeds(byLabel('state/sent-on-every-request')).features).toEqual([]);
    expect(effectsNeeds(byLabel('permission/ask-persists-after-a-later-allow')).features).toEqual([
      'hostPermission',
    ]);
    expect(effectsNeeds(byLabel('continue/with-an-instruction'))).toMatchObject({
      features: ['outcomes'],
      event: 'turn.finish.before',
    });
  });

  it("is served by the harness's own advertisement only when it offers everything the case answers with", () => {
    const kept = byLabel('return/kept/not-executed-not-a-deny');
    expect(unservedBy(kept, TOOL_CAPABILITIES)).toBeUndefined();
    expect(unservedBy(kept, { effects: ['deny', 'message'] })).toMatch(/did not advertise return/);
    const inject = byLabel('inject/accepted-injections-in-order');
    const nextTurnOnly = {
      ...TOOL_CAPABILITIES,
      inject: { context: { append: true, deliverAt: ['next_turn'] } },
    };
    expect(unservedBy(inject, nextTurnOnly)).toMatch(/did not advertise inject at now/);
    expect(unservedBy(byLabel('continue/with-an-instruction'), TOOL_CAPABILITIES)).toMatch(
      /continuation allowance given through invoke capabilities/,
    );
    expect(
      unservedBy(byLabel('inject/unadvertised-delivery-rejects-the-response'), TOOL_CAPABILITIES),
    ).toMatch(/features.advertise/);
  });
});
