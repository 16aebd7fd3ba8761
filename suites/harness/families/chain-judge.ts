/**
 * The verdicts of a case with several backends (chain-cases.ts), from the driver's answer and
 * each backend's own recordings: how many `hooks/intercept` requests and `hooks/observe`
 * notifications each backend received, the decision, and whether the interceptors were asked one
 * after another in registration order. Pure.
 */
import type { InvokeResult } from '../../driver/index.js';
import type { Finding } from '../../common/finding.js';
import type { BackendCall } from '../kit/backend-set.js';
import { goesAhead } from '../kit/goes-ahead.js';
import { finding, type RuleKey } from '../kit/rules.js';

/** What a chain case expects; a backend whose count is `undefined` is not judged on it. */
export interface ChainExpectation {
  /**
   * `not-continue`: the call must not go ahead: any decision but `continue`, or (v1.3) a flow
   * stop with executed false (kit/goes-ahead.ts).
   */
  decision?: 'continue' | 'deny' | 'not-continue';
  /** Per backend, in registration order: the intercept requests it must have received. */
  asked: readonly (number | undefined)[];
  /** Per backend: the observe notifications it must have received (judged when given). */
  observed?: readonly (number | undefined)[];
  /** Each interceptor must be asked only after the previous one's reply left. */
  serial?: boolean;
  /** Why, in a few words, for the problem sentences. */
  because: string;
  /** The rule the decision and the counts rest on (default `composition.chain`). */
  rule?: RuleKey;
}

function label(index: number): string {
  return `backend ${index + 1}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Problems with the order of the intercept requests: backend k+1 must be asked after backend k
 * (registration order) and not before k's reply left (serially), judged on the first request
 * each received, on the wall clock, with `slackMs` for the clocks of different processes.
 */
export function serialProblems(calls: readonly BackendCall[], slackMs: number): Finding[] {
  const problems: Finding[] = [];
  const out = (message: string) => problems.push(finding('composition.serial', message));
  for (let k = 0; k + 1 < calls.length; k++) {
    const current = calls[k]?.requests[0];
    const next = calls[k + 1]?.requests[0];
    if (!current || !next) continue;
    if (next.arrivedAtWallMs < current.arrivedAtWallMs) {
      out(
        `${label(k + 1)} was asked ${Math.round(current.arrivedAtWallMs - next.arrivedAtWallMs)} ms before ${label(k)}: interceptors must run in registration order`,
      );
      continue;
    }
    const replied = current.repliedAtWallMs;
    if (replied !== undefined && next.arrivedAtWallMs < replied - slackMs) {
      out(
        `${label(k + 1)} was asked ${Math.round(replied - next.arrivedAtWallMs)} ms before ${label(k)}'s reply left: interceptors must not run concurrently`,
      );
    }
  }
  return problems;
}

function countProblems(
  calls: readonly BackendCall[],
  expected: readonly (number | undefined)[],
  what: 'requests' | 'notifications',
  because: string,
  rule: RuleKey,
): Finding[] {
  const method = what === 'requests' ? 'hooks/intercept request' : 'hooks/observe notification';
  return expected.flatMap((want, i) => {
    const got = calls[i]?.[what].length ?? 0;
    if (want === undefined || got === want) return [];
    return [
      finding(
        rule,
        `${label(i)} received ${plural(got, method)} for the call, expected ${want} (${because})`,
      ),
    ];
  });
}

/** Every way the driver's answer and the backends' recordings fall short of the expectation. */
export function chainProblems(
  expected: ChainExpectation,
  result: InvokeResult,
  calls: readonly BackendCall[],
  slackMs: number,
): Finding[] {
  const problems: Finding[] = [];
  const rule = expected.rule ?? 'composition.chain';
  const { decision } = expected;
  if (decision === 'not-continue' && goesAhead(result)) {
    problems.push(
      finding(
        rule,
        `the driver reported "continue"${result.flow === undefined ? '' : ` with flow "${result.flow}" and executed ${String(result.executed)}`}, but ${expected.because}: the call must not go ahead`,
      ),
    );
  } else if (decision !== undefined && decision !== 'not-continue' && result.decision !== decision) {
    problems.push(
      finding(rule, `the driver reported "${result.decision}", expected "${decision}" (${expected.because})`),
    );
  }
  problems.push(...countProblems(calls, expected.asked, 'requests', expected.because, rule));
  if (expected.observed) {
    problems.push(...countProblems(calls, expected.observed, 'notifications', expected.because, rule));
  }
  if (expected.serial) problems.push(...serialProblems(calls, slackMs));
  return problems;
}
