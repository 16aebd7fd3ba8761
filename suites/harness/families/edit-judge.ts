/**
 * The judgement of one AHP-EDIT-001 chain call: the driver's decision and audit, the count of
 * intercept requests, the exact tool input each interceptor was sent, and what the observer saw.
 * Pure: the run comes in as values.
 */
import { isDeepStrictEqual } from 'node:util';
import { isJsonObject, type JsonValue } from '../../../protocol/json.js';
import type { InvokeResult } from '../../driver/index.js';
import type { Finding } from '../../common/finding.js';
import { frameParams } from '../kit/advertised-authority.js';
import { finding } from '../kit/rules.js';
import type { WireFrame } from '../kit/wire-records.js';
import type { EditExpectation } from './edit-case-data.js';

/** "first", "second"...: the n-th interceptor (0-based) as findings name it. */
export const ordinal = (i: number) => ['first', 'second', 'third'][i] ?? `#${i + 1}`;

/** The tool input a recorded request or notification carries. */
export function toolInput(frame: WireFrame | undefined): JsonValue | undefined {
  const event = frame ? frameParams(frame)?.event : undefined;
  return isJsonObject(event) && isJsonObject(event.tool) ? event.tool.input : undefined;
}

/** What one chain call showed: the driver's answer and what each backend received of the call. */
export interface ChainRun {
  answer: InvokeResult;
  /** The first interceptor's backend id, as its audit entry names it. */
  firstId: string;
  /** The intercept requests of the call, by interceptor in chain order. */
  requests: WireFrame[][];
  /** The observer's notifications of the call. */
  notifications: WireFrame[];
}

/** Every way the call, the wire and the audit differ from the expectation. */
export function chainProblems(run: ChainRun, expected: EditExpectation): Finding[] {
  const { answer, requests } = run;
  const problems: Finding[] = [];
  const outcome = (message: string) => problems.push(finding('edit.outcome', message));
  const passedOn = (message: string) => problems.push(finding('edit.passed-on', message));
  if (answer.decision !== expected.decision) {
    outcome(`the decision was ${answer.decision}, expected ${expected.decision}: ${expected.because}`);
  }
  if (answer.synthetic !== expected.synthetic) {
    outcome(`synthetic was ${answer.synthetic}, expected ${expected.synthetic}: ${expected.because}`);
  }
  const entry = answer.audit.find((a) => a.backendId === run.firstId && a.mode !== 'observe');
  if (entry && entry.outcome !== expected.first.outcome) {
    outcome(`the first interceptor's audit outcome was ${entry.outcome}, expected ${expected.first.outcome}`);
  }
  if (entry?.failureClass !== undefined && 'failureClass' in expected.first) {
    if (entry.failureClass !== expected.first.failureClass) {
      outcome(`the failure class was ${entry.failureClass}, expected ${expected.first.failureClass}`);
    }
  }
  const asked = requests.reduce((n, received) => n + received.length, 0);
  if (asked !== expected.inputs.length) {
    outcome(
      `the backends recorded ${asked} intercept request(s) of the call, expected ${expected.inputs.length} ` +
        `(the policy applies once, and only a continuing chain asks the next interceptor)`,
    );
  }
  expected.inputs.forEach((input, i) => {
    const request = requests[i]?.[0];
    if (request === undefined) return;
    const seen = toolInput(request);
    if (!isDeepStrictEqual(seen, input)) {
      passedOn(
        `the ${ordinal(i)} interceptor was sent tool.input ${JSON.stringify(seen)}, expected exactly ` +
          `${JSON.stringify(input)}${i === 0 ? ' (the original)' : ''}: ${expected.because}`,
      );
    }
  });
  if (expected.observed !== undefined) {
    if (run.notifications.length === 0) passedOn('the observer was sent no hooks/observe of the call');
    for (const note of run.notifications) {
      const seen = toolInput(note);
      if (!isDeepStrictEqual(seen, expected.observed)) {
        passedOn(
          `the observer was sent tool.input ${JSON.stringify(seen)}, expected the effective ` +
            `${JSON.stringify(expected.observed)}: ${expected.because}`,
        );
      }
    }
  }
  return problems;
}
