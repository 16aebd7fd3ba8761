import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../protocol/json.js';
import { judgeScenario, type InteropObservation, type ReportedFeatures } from './compare.js';
import type { InvokeResult } from '../driver/index.js';
import type { InterceptScenario } from './format.js';
import { translateScenario, type InteropPlan } from './translate.js';
import { FULL_CAPABILITIES, INPUT, interceptScenario } from './test-support/samples.js';

const ALL: ReportedFeatures = { outcomes: true, execution: true, hostPermission: true };
const BACKEND = 'dev.test.scenario';

function plan(overrides: JsonObject = {}, params: JsonObject = {}): InteropPlan {
  const s = interceptScenario('s', overrides, params) as unknown as InterceptScenario & {
    expected?: unknown;
  };
  if (overrides.expectError === true) delete s.expected;
  return translateScenario(s);
}

function rejectionPlan(extra: JsonObject = {}): InteropPlan {
  return plan({ expectError: true, tags: ['atomic-rejection'], ...extra });
}

const requestParams = (state: JsonObject = { permission: 'none', candidate: null }): JsonObject => ({
  capabilities: FULL_CAPABILITIES,
  state,
});

function observe(result: Partial<InvokeResult>, over: Partial<InteropObservation> = {}): InteropObservation {
  return {
    result: {
      decision: 'continue',
      synthetic: false,
      interrupted: false,
      executed: true,
      permission: 'allow',
      audit: [{ backendId: BACKEND, outcome: 'no-effect' }],
      messages: [],
      input: INPUT,
      ...result,
    } as InvokeResult,
    features: ALL,
    backendId: BACKEND,
    request: requestParams(),
    prefixRequests: [],
    ...over,
  };
}

const rejected: Partial<InvokeResult> = {
  decision: 'deny',
  synthetic: true,
  executed: false,
  permission: 'deny',
  audit: [
    {
      backendId: BACKEND,
      outcome: 'operational-failure',
      failureClass: 'invalid-effects',
      policy: 'fail-closed',
    },
  ],
};

const messages = (findings: { message: string }[]) => findings.map((f) => f.message);

describe('judgeScenario: an outcome to reach', () => {
  it('passes when every expected key matches what the driver reported', () => {
    expect(judgeScenario(plan(), observe({}))).toEqual({ findings: [], untested: [], notes: [] });
  });

  it('fails each key that differs, naming it', () => {
    const verdict = judgeScenario(
      plan(),
      observe({ decision: 'deny', executed: false, messages: ['x'], input: { path: 'other' } }),
    );
    expect(messages(verdict.findings)).toEqual([
      'decision: expected allow, the call came to deny',
      'executed: expected true, the driver reported false',
      `input: expected ${JSON.stringify(INPUT)}, the driver reported {"path":"other"}`,
      'messages: expected [], the driver reported ["x"]',
    ]);
  });

  it('tells allow from ask by the reported permission, and a flow, result or continuation by its member', () => {
    const ask = plan({ expected: { decision: 'ask', executed: false, messages: [] } });
    expect(messages(judgeScenario(ask, observe({ executed: false, permission: 'allow' })).findings)).toEqual([
      'decision: expected ask, the call came to allow',
    ]);
    expect(judgeScenario(ask, observe({ executed: false, permission: 'ask' })).findings).toEqual([]);
    const stop = plan({
      expected: {
        decision: 'allow',
        executed: false,
        messages: [],
        result: null,
        flow: 'stop',
        continuationRemaining: 1,
      },
    });
    expect(messages(judgeScenario(stop, observe({ executed: false, flow: 'stop' })).findings)).toEqual([
      'result: expected null, the driver reported nothing',
      'continuationRemaining: expected 1, the driver reported nothing',
    ]);
  });

  it('compares every outcome key deeply, one finding per key that differs', () => {
    const every = plan({
      expected: {
        decision: 'allow',
        executed: false,
        input: INPUT,
        messages: ['a'],
        result: { cached: 1 },
        flow: 'continue',
        injections: [{ type: 'inject', text: 'x' }],
        continuationInstructions: ['again'],
        continuationRemaining: 1,
      },
    });
    const same = {
      executed: false,
      messages: ['a'],
      result: { cached: 1 },
      flow: 'continue' as const,
      injections: [{ type: 'inject', text: 'x' }],
      continuationInstructions: ['again'],
      continuationRemaining: 1,
    };
    expect(judgeScenario(every, observe(same)).findings).toEqual([]);
    const other = observe({
      ...same,
      result: { cached: 2 },
      flow: 'stop',
      injections: [],
      continuationInstructions: ['other'],
      continuationRemaining: 0,
    });
    expect(messages(judgeScenario(every, other).findings).map((m) => m.split(':')[0])).toEqual([
      'result',
      'flow',
      'injections',
      'continuationInstructions',
      'continuationRemaining',
    ]);
  });

  it('is untested, per key and with its reason, for what the driver does not report', () => {
    const bare = observe({}, { features: { outcomes: false, execution: false, hostPermission: false } });
    delete bare.result.permission;
    delete bare.result.executed;
    const verdict = judgeScenario(plan(), bare);
    expect(verdict.findings).toEqual([]);
    expect(verdict.untested).toEqual([
      expect.stringMatching(/^decision: the driver reports no host permission/),
      expect.stringMatching(/^executed: the driver does not report whether the operation ran/),
      expect.stringMatching(/^input, messages: the driver does not announce features\.outcomes/),
    ]);
  });

  it('does not read a pre-v1.3 deny of a stopped call as the decision', () => {
    const stop = plan({ expected: { decision: 'allow', executed: false, messages: [], flow: 'stop' } });
    const verdict = judgeScenario(
      stop,
      observe(
        { decision: 'deny', executed: false, permission: 'deny' },
        { features: { ...ALL, outcomes: false } },
      ),
    );
    expect(verdict.findings).toEqual([]);
    expect(verdict.untested[0]).toMatch(/^decision: .*before which a flow stop may be reported as deny/);
    expect(
      messages(judgeScenario(stop, observe({ decision: 'deny', executed: false, flow: 'stop' })).findings),
    ).toEqual(['decision: expected allow, the call came to deny']);
  });

  it('still fails a key it can judge when others are untested', () => {
    const verdict = judgeScenario(
      plan(),
      observe({ decision: 'deny' }, { features: { ...ALL, outcomes: false } }),
    );
    expect(messages(verdict.findings)).toEqual(['decision: expected allow, the call came to deny']);
  });
});

describe('judgeScenario: the wire and the incoming state', () => {
  const candidate = {
    permission: 'allow',
    candidate: { value: { hit: 1 }, provenance: { requestId: 'earlier' } },
  };

  it('compares the state the scenario backend received, provenance aside', () => {
    const p = plan({}, { state: candidate });
    const prefixes = [requestParams(), requestParams()];
    const sent = { permission: 'allow', candidate: { value: { hit: 1 }, provenance: { requestId: 'mine' } } };
    expect(
      judgeScenario(p, observe({}, { request: requestParams(sent), prefixRequests: prefixes })).findings,
    ).toEqual([]);
    const wrong = { permission: 'none', candidate: { value: { hit: 1 } } };
    expect(
      messages(
        judgeScenario(p, observe({}, { request: requestParams(wrong), prefixRequests: prefixes })).findings,
      ),
    ).toEqual([
      `the scenario's backend received params.state {"flow":"none","instructions":[],"injections":[],"permission":"none","candidate":{"value":{"hit":1}}}, the earlier interceptors made {"flow":"none","instructions":[],"injections":[],"permission":"allow","candidate":{"value":{"hit":1}}}`,
    ]);
    // A member the scenario leaves out stands for its neutral value, which a harness may send.
    const spelled = { ...sent, flow: 'none', instructions: [], injections: [] };
    expect(
      judgeScenario(p, observe({}, { request: requestParams(spelled), prefixRequests: prefixes })).findings,
    ).toEqual([]);
    const stopped = { ...sent, flow: 'stop' };
    expect(
      judgeScenario(p, observe({}, { request: requestParams(stopped), prefixRequests: prefixes })).findings,
    ).toHaveLength(1);
    const none = judgeScenario(
      p,
      observe({}, { request: { capabilities: FULL_CAPABILITIES }, prefixRequests: prefixes }),
    );
    expect(none.findings).toEqual([]);
    expect(none.notes).toEqual([expect.stringMatching(/sent no params\.state/)]);
  });

  it("does not judge the permission the harness sends where the incoming deny is the host's own", () => {
    const p = plan({}, { state: { permission: 'deny', candidate: null } });
    expect(p.hostPermission).toBe('deny');
    const verdict = judgeScenario(
      p,
      observe(
        { decision: 'deny', executed: false, permission: 'deny', messages: [] },
        {
          request: requestParams({ permission: 'none', candidate: null }),
        },
      ),
    );
    expect(verdict.findings.filter((f) => f.message.includes('params.state'))).toEqual([]);
    expect(verdict.notes).toEqual([
      expect.stringMatching(/the incoming deny is the host's own permission here/),
    ]);
  });

  it('fails a prefix not asked, and is untested when a prefix was not offered its effect', () => {
    const p = plan({}, { state: candidate });
    expect(
      messages(judgeScenario(p, observe({}, { prefixRequests: [undefined, undefined] })).findings),
    ).toEqual(['the interceptor that makes the candidate (number 1 of the chain) was not asked']);
    const withheld = { capabilities: { effects: ['deny', 'allow'] } };
    const verdict = judgeScenario(p, observe({}, { prefixRequests: [withheld, requestParams()] }));
    expect(verdict.findings).toEqual([]);
    expect(verdict.untested).toEqual([
      expect.stringMatching(
        /offers the return effect, but the harness withheld it on the request of the interceptor that makes the candidate/,
      ),
    ]);
  });

  it('is untested when the harness advertised otherwise than the scenario for the effects of its response', () => {
    const response = { jsonrpc: '2.0', id: 's', result: { effects: [{ type: 'message', text: 'hi' }] } };
    const p = plan({ response, expected: { decision: 'allow', executed: true, messages: ['hi'] } });
    const verdict = judgeScenario(
      p,
      observe({ messages: ['hi'] }, { request: { capabilities: { effects: ['deny'] } } }),
    );
    expect(verdict.untested).toEqual([
      expect.stringMatching(/offers the message effect, but the harness withheld it/),
    ]);
  });

  it('fails a scenario backend asked after a flow stop, and one not asked otherwise', () => {
    const stop = plan({}, { state: { permission: 'none', candidate: null, flow: 'stop' } });
    const flowCaps = { capabilities: { effects: ['flow'], flow: { operations: ['stop'] } } };
    const stopCaps = plan(
      {},
      { state: { permission: 'none', candidate: null, flow: 'stop' }, capabilities: flowCaps.capabilities },
    );
    expect(messages(judgeScenario(stopCaps, observe({}, { prefixRequests: [flowCaps] })).findings)).toEqual([
      "the scenario's backend was asked after an accepted flow stop",
    ]);
    expect(stop.asked).toBe(false);
    expect(messages(judgeScenario(plan(), observe({}, { request: undefined })).findings)).toEqual([
      "the scenario's backend was not asked",
    ]);
  });
});

describe('judgeScenario: a response to reject whole', () => {
  it('passes an operational failure of the backend, a synthetic deny and nothing published', () => {
    expect(judgeScenario(rejectionPlan(), observe(rejected)).findings).toEqual([]);
  });

  it('fails a response applied, a transport class, a non-synthetic outcome and anything published', () => {
    expect(messages(judgeScenario(rejectionPlan(), observe({})).findings)).toEqual([
      'the response must be rejected whole as an operational failure; the audit says no-effect',
      'a rejected response under fail-closed is a synthetic deny; the call came to continue (not synthetic)',
      'the operation ran although the response was rejected under fail-closed',
    ]);
    const classed = {
      ...rejected,
      audit: [
        { backendId: BACKEND, outcome: 'operational-failure' as const, failureClass: 'connection' as const },
      ],
    };
    expect(messages(judgeScenario(rejectionPlan(), observe(classed)).findings)).toEqual([
      expect.stringMatching(/^the rejection is classed connection, not a rejected response/),
    ]);
    const published = {
      ...rejected,
      messages: ['Visible only after acceptance'],
      input: { path: 'x' },
      result: 2,
    };
    expect(messages(judgeScenario(rejectionPlan(), observe(published)).findings)).toEqual([
      `a response rejected whole published messages ["Visible only after acceptance"], result 2, input {"path":"x"} instead of ${JSON.stringify(INPUT)}`,
    ]);
  });

  it('is untested without a failure class or without the outcome members', () => {
    const unclassed = {
      ...rejected,
      audit: [{ backendId: BACKEND, outcome: 'operational-failure' as const }],
    };
    expect(judgeScenario(rejectionPlan(), observe(unclassed)).untested).toEqual([
      expect.stringMatching(/^failure class: the driver reports none/),
    ]);
    const verdict = judgeScenario(
      rejectionPlan(),
      observe(rejected, { features: { ...ALL, outcomes: false } }),
    );
    expect(verdict.findings).toEqual([]);
    expect(verdict.untested).toEqual([
      expect.stringMatching(/^nothing published: the driver does not announce features\.outcomes/),
    ]);
  });

  it("accepts the host input schema's outcome instead where the scenario gives one, and says so", () => {
    const host = { decision: 'allow', executed: false, input: { path: 'x' }, messages: ['m'] };
    const p = rejectionPlan({ hostExpected: host });
    const hostRun = observe({ executed: false, input: { path: 'x' }, messages: ['m'] });
    const verdict = judgeScenario(p, hostRun);
    expect(verdict.findings).toEqual([]);
    expect(verdict.notes).toEqual([
      expect.stringMatching(/accepted the host input schema's outcome \(hostExpected\)/),
    ]);
    expect(judgeScenario(p, observe(rejected)).findings).toEqual([]);
    // Neither: a harness without such a schema accepted a valid AHP response; untested, never passed.
    const neither = judgeScenario(p, observe({}));
    expect(neither.findings).toEqual([]);
    expect(neither.untested).toEqual([
      expect.stringMatching(/^the scenario tests the host's own input schema \(hostExpected\), not AHP/),
    ]);
    // Without hostExpected, the host outcome is no way out.
    expect(judgeScenario(rejectionPlan(), hostRun).findings.length).toBeGreaterThan(0);
  });
});
