import { describe, expect, it } from 'vitest';
import type { InvokeResult } from '../../driver/index.js';
import type { BackendCall, TimedFrame } from '../kit/backend-set.js';
import type { WireFrame } from '../kit/wire-records.js';
import {
  chainProblems as chainProblemsFindings,
  serialProblems as serialProblemsFindings,
  type ChainExpectation,
} from './chain-judge.js';
import { messagesOf as messages } from '../kit/rules.js';

/** The checks' findings as their messages (the rules are asserted where they matter). */
const chainProblems = (...args: Parameters<typeof chainProblemsFindings>) =>
  messages(chainProblemsFindings(...args));
const serialProblems = (...args: Parameters<typeof serialProblemsFindings>) =>
  messages(serialProblemsFindings(...args));

/** A request that arrived at `arrived` and whose reply left at `replied` (wall clock, ms). */
function request(arrived: number, replied?: number): TimedFrame {
  const frame = { delivery: 1 } as WireFrame;
  return replied === undefined
    ? { frame, arrivedAtWallMs: arrived }
    : { frame, arrivedAtWallMs: arrived, repliedAtWallMs: replied };
}

function call(requests: TimedFrame[], notifications = 0): BackendCall {
  return { requests, notifications: Array.from({ length: notifications }, () => request(0)) };
}

const SLACK = 20;
const CONTINUED: InvokeResult = { decision: 'continue', synthetic: false, interrupted: false, audit: [] };
const DENIED: InvokeResult = { ...CONTINUED, decision: 'deny' };

describe('serialProblems', () => {
  it('accepts each request arriving after the previous reply left, within the slack', () => {
    const calls = [call([request(0, 150)]), call([request(160, 310)]), call([request(300, 450)])];
    expect(serialProblems(calls, SLACK)).toEqual([]);
  });

  it('names a request that arrived while the previous interceptor had not answered', () => {
    const calls = [call([request(0, 150)]), call([request(5, 155)]), call([request(160, 310)])];
    expect(serialProblems(calls, SLACK)).toEqual([
      "backend 2 was asked 145 ms before backend 1's reply left: interceptors must not run concurrently",
    ]);
    expect(serialProblemsFindings(calls, SLACK).map((f) => f.rule)).toEqual(['composition.serial']);
  });

  it('names a backend asked before the one registered ahead of it', () => {
    const calls = [call([request(200, 350)]), call([request(0, 150)])];
    expect(serialProblems(calls, SLACK)).toEqual([
      'backend 2 was asked 200 ms before backend 1: interceptors must run in registration order',
    ]);
  });

  it('judges only pairs where both backends were asked', () => {
    expect(serialProblems([call([request(0, 150)]), call([]), call([request(1, 2)])], SLACK)).toEqual([]);
  });
});

describe('chainProblems', () => {
  const stopAtSecond: ChainExpectation = { decision: 'deny', asked: [1, 1, 0], because: 'the 2nd denies' };

  it('holds for the expected decision and deliveries', () => {
    const calls = [call([request(0, 1)]), call([request(2, 3)]), call([], 1)];
    expect(chainProblems(stopAtSecond, DENIED, calls, SLACK)).toEqual([]);
  });

  it('names a backend asked after the chain had to stop, and a wrong decision', () => {
    const calls = [call([request(0, 1)]), call([request(2, 3)]), call([request(4, 5)])];
    expect(chainProblems(stopAtSecond, CONTINUED, calls, SLACK)).toEqual([
      'the driver reported "continue", expected "deny" (the 2nd denies)',
      'backend 3 received 1 hooks/intercept request for the call, expected 0 (the 2nd denies)',
    ]);
  });

  it('takes any decision but continue for not-continue, and skips counts left undefined', () => {
    const expectation: ChainExpectation = {
      decision: 'not-continue',
      asked: [1, undefined],
      observed: [0, 1],
      because: 'interrupted',
    };
    const calls = [call([request(0, 1)], 1), call([request(2, 3), request(4, 5)])];
    expect(chainProblems(expectation, DENIED, calls, SLACK)).toEqual([
      'backend 1 received 1 hooks/observe notification for the call, expected 0 (interrupted)',
      'backend 2 received 0 hooks/observe notifications for the call, expected 1 (interrupted)',
    ]);
    expect(chainProblems(expectation, CONTINUED, calls, SLACK)[0]).toBe(
      'the driver reported "continue", but interrupted: the call must not go ahead',
    );
  });

  it('takes a stop reported either way for not-continue: as a deny, or as flow stop with executed false', () => {
    const stop: ChainExpectation = {
      decision: 'not-continue',
      asked: [1, 1, 0],
      because: 'the 2nd stops the flow',
    };
    const calls = [call([request(0, 1)]), call([request(2, 3)]), call([], 1)];
    expect(chainProblems(stop, DENIED, calls, SLACK)).toEqual([]);
    expect(chainProblems(stop, { ...CONTINUED, flow: 'stop', executed: false }, calls, SLACK)).toEqual([]);
    expect(chainProblems(stop, { ...CONTINUED, executed: true }, calls, SLACK)).toEqual([
      'the driver reported "continue", but the 2nd stops the flow: the call must not go ahead',
    ]);
    expect(chainProblems(stop, { ...CONTINUED, flow: 'stop', executed: true }, calls, SLACK)).toEqual([
      'the driver reported "continue" with flow "stop" and executed true, but the 2nd stops the flow: the call must not go ahead',
    ]);
  });
});
