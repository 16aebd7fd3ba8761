/**
 * The judgement of one effects chain call (effects-case-data.ts): the driver's v1.3 outcome
 * members against the worked-out expectation, how many interceptors were asked, the control
 * state (`params.state`) each was sent, and the boundary copy an uncalled one was sent. Pure:
 * the run comes in as values.
 */
import { isDeepStrictEqual } from 'node:util';
import { isJsonObject, type JsonValue } from '../../../protocol/json.js';
import type { InvokeResult } from '../../driver/index.js';
import type { Finding } from '../../common/finding.js';
import { frameParams } from '../kit/advertised-authority.js';
import { finding, type RuleKey } from '../kit/rules.js';
import type { WireFrame } from '../kit/wire-records.js';
import type { EffectsCase, ExpectedState } from './effects-case-data.js';
import { ordinal } from './edit-judge.js';

/** What one chain call showed: the driver's answer and what each backend received of it. */
export interface EffectsRun {
  answer: InvokeResult;
  /** The intercept requests of the call, by interceptor in chain order. */
  requests: WireFrame[][];
  /** The observe notifications of the call, by interceptor in chain order. */
  notifications: WireFrame[][];
}

/** The rule a case's outcome findings are judged under: the composition rule of its area, or atomicity. */
export function outcomeRule(c: EffectsCase): RuleKey {
  if (c.requirements[0] === 'AHP-EDIT-001') return 'effects.atomic';
  if (c.requirements[0] === 'AHP-DEC-001') return 'effects.advertised-only';
  const area = c.label.split('/')[0];
  const byArea: Record<string, RuleKey> = {
    return: 'effects.supplied-result',
    message: 'effects.messages',
    permission: 'effects.permission',
    'flow-stop': 'effects.flow',
    continue: 'effects.continuation',
    inject: 'effects.inject',
    state: 'effects.state',
  };
  const key = area === undefined ? undefined : byArea[area];
  if (key === undefined) throw new Error(`effects case "${c.label}" names no known area`);
  return key;
}

const shown = (value: JsonValue | undefined) => (value === undefined ? 'nothing' : JSON.stringify(value));

/** The state a request carried, as `{ permission, candidate }` or a sentence saying what is wrong. */
function sentState(frame: WireFrame): ExpectedState | string {
  const state = frameParams(frame)?.state;
  if (!isJsonObject(state)) return 'no params.state';
  const { permission, candidate } = state;
  if (candidate === null) return { permission: permission as ExpectedState['permission'], candidate: null };
  if (!isJsonObject(candidate) || !('value' in candidate)) {
    return `params.state.candidate ${shown(candidate)} (neither null nor an object with a value)`;
  }
  return {
    permission: permission as ExpectedState['permission'],
    candidate: { value: candidate.value as JsonValue },
  };
}

function stateProblems(run: EffectsRun, states: readonly ExpectedState[]): Finding[] {
  const problems: Finding[] = [];
  states.forEach((want, i) => {
    const frame = run.requests[i]?.[0];
    if (frame === undefined) return;
    const got = sentState(frame);
    const which = `the ${ordinal(i)} interceptor`;
    if (typeof got === 'string') {
      problems.push(finding('effects.state', `${which} was sent ${got}, expected ${JSON.stringify(want)}`));
    } else if (got.permission !== want.permission || !isDeepStrictEqual(got.candidate, want.candidate)) {
      problems.push(
        finding(
          'effects.state',
          `${which} was sent state permission ${shown(got.permission)} and candidate ${shown(got.candidate)}, ` +
            `expected ${want.permission} and ${shown(want.candidate)}`,
        ),
      );
    }
  });
  return problems;
}

/** The members of the answer compared one by one: name, expected (undefined: not judged), reported. */
function memberProblems(c: EffectsCase, answer: InvokeResult, fail: (message: string) => void): void {
  const { expect } = c;
  const compare = (name: string, want: JsonValue | undefined, got: JsonValue | undefined) => {
    if (want === undefined || isDeepStrictEqual(want, got)) return;
    fail(`${name} was ${shown(got)}, expected ${JSON.stringify(want)}: ${expect.because}`);
  };
  compare('messages', expect.messages, answer.messages);
  compare('injections', expect.injections, answer.injections as JsonValue | undefined);
  compare('continuationInstructions', expect.continuationInstructions, answer.continuationInstructions);
  compare('continuationRemaining', expect.continuationRemaining, answer.continuationRemaining);
  if (expect.flow !== undefined) {
    const want = expect.flow === 'none' ? undefined : expect.flow;
    if (answer.flow !== want)
      fail(`flow was ${shown(answer.flow)}, expected ${shown(want)}: ${expect.because}`);
  }
  if (expect.result === 'none') {
    if ('result' in answer)
      fail(`a supplied result ${shown(answer.result as JsonValue)} was reported: ${expect.because}`);
  } else if (expect.result !== undefined) {
    if (!('result' in answer)) fail(`no supplied result was reported: ${expect.because}`);
    else compare('result', expect.result.value, answer.result as JsonValue);
  }
  // Reported on a flow stop by a driver that names it; the draft makes no driver report it.
  if (expect.reason !== undefined && answer.reason !== undefined)
    compare('reason', expect.reason, answer.reason);
  if (expect.executed !== undefined && answer.executed !== undefined)
    compare('executed', expect.executed, answer.executed);
  if (expect.permission !== undefined) compare('permission', expect.permission, answer.permission);
}

/** Every way the call, the wire and the reported outcome differ from the case's expectation. */
export function effectsProblems(c: EffectsCase, run: EffectsRun): Finding[] {
  const { expect } = c;
  const { answer } = run;
  const rule = outcomeRule(c);
  const problems: Finding[] = [];
  const fail = (message: string) => problems.push(finding(rule, message));
  const decisionOk =
    expect.decision === 'continue-or-deny'
      ? answer.decision !== undefined
      : answer.decision === expect.decision;
  if (!decisionOk)
    fail(`the decision was ${answer.decision}, expected ${expect.decision}: ${expect.because}`);
  if (expect.synthetic !== undefined && answer.synthetic !== expect.synthetic) {
    fail(`synthetic was ${answer.synthetic}, expected ${expect.synthetic}: ${expect.because}`);
  }
  memberProblems(c, answer, fail);
  const asked = run.requests.map((received) => received.length);
  const wanted = run.requests.map((_, i) => (i < expect.asked ? 1 : 0));
  if (!isDeepStrictEqual(asked, wanted)) {
    const chainRule: RuleKey = rule === 'effects.atomic' ? rule : 'composition.chain';
    problems.push(
      finding(
        chainRule,
        `the interceptors recorded [${asked.join(', ')}] intercept request(s) of the call, expected ` +
          `[${wanted.join(', ')}]: ${expect.because}`,
      ),
    );
  }
  for (const i of expect.boundaryCopies ?? []) {
    if ((run.notifications[i]?.length ?? 0) === 0) {
      problems.push(
        finding(
          'effects.flow',
          `the uncalled ${ordinal(i)} interceptor was sent no hooks/observe of the boundary`,
        ),
      );
    }
  }
  if (expect.states !== undefined) problems.push(...stateProblems(run, expect.states));
  return problems;
}
