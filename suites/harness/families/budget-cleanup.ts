/**
 * AHPX-BUD-005: bounded cleanup after a call's budget expired may retire what the call owned, but
 * never continues its ordinary delivery (one more intercept request) or starts its observations.
 * The check watches the mock for a while after the call settled and judges what arrived then.
 */
import type { CaseCheck, CaseRunContext, StepRun } from '../kit/case-model.js';
import { findingsOf } from '../kit/rules.js';
import type { WireFrame } from '../kit/wire-records.js';
import type { HarnessTransport } from '../kit/timing.js';
import { DELIVERY_SLACK_MS } from './deadline-timing.js';
import { scaled } from '../../common/settings.js';

/**
 * How long after the call settled the suite keeps watching for deliveries its cleanup must not
 * make: a stray HTTP request lands within milliseconds, a stray per-event one needs a process
 * start first. Only bounds how long a late frame can hide; the reference never sends one.
 */
export const CLEANUP_WATCH_MS: Readonly<Record<HarnessTransport, number>> = {
  'stdio-persistent': 1000,
  'stdio-per_event': 2500,
  http: 1000,
};

/** A frame of the call with its arrival on the wall clock (stdio mocks are other processes). */
export interface TimedFrame {
  frame: WireFrame;
  wallMs: number;
}

function describe(t: TimedFrame, from: number): string {
  const what = t.frame.method ?? 'a frame';
  return `${what} (delivery ${t.frame.delivery}) arrived ${Math.round(t.wallMs - from)} ms after the call's first request`;
}

/**
 * The problems of one expired call, judged on the mock's recordings after the watch:
 * - more intercept requests than the attempts the harness's own audit counts were sent outside the
 *   call (without an `attempts` figure: a request later than the budget after the first one);
 * - an observe notification that arrives once the budget has run out was started after expiry: an
 *   observation sent alongside the interceptor would arrive with its request, long before.
 */
export function strayDeliveries(
  frames: readonly TimedFrame[],
  budgetMs: number,
  slackMs: number,
  attempts: number | undefined,
): string[] {
  const requests = frames.filter((t) => t.frame.method === 'hooks/intercept' && t.frame.kind === 'request');
  const first = requests.reduce((min, t) => Math.min(min, t.wallMs), Infinity);
  const problems: string[] = [];
  if (attempts !== undefined && requests.length > attempts) {
    problems.push(
      `the mock received ${requests.length} intercept requests for the call, but the audit counts ${attempts} attempt(s): the rest were sent after the call ended`,
    );
  } else if (attempts === undefined && Number.isFinite(first)) {
    for (const t of requests.filter((r) => r.wallMs > first + budgetMs + slackMs)) {
      problems.push(`${describe(t, first)}, past the budget of ${budgetMs} ms`);
    }
  }
  const notifications = frames.filter((t) => t.frame.method === 'hooks/observe');
  for (const t of notifications) {
    if (!Number.isFinite(first) || t.wallMs >= first + budgetMs - slackMs) {
      problems.push(
        Number.isFinite(first)
          ? `${describe(t, first)}: an observation started once the budget of ${budgetMs} ms had run out`
          : 'an observe notification reached the mock although the expired call never delivered its request',
      );
    }
  }
  return problems;
}

/** The check: watch for `CLEANUP_WATCH_MS` after the call settled, then judge what arrived. */
export function noDeliveryAfterExpiry(budgetMs: number): CaseCheck {
  return {
    name: 'cleanup delivers nothing after the budget expired',
    async run(run: StepRun, context: CaseRunContext) {
      const watchMs = scaled(CLEANUP_WATCH_MS[context.testCase.transport]);
      // Nothing is awaited here but the absence of a frame: the watch is a bounded wait.
      await new Promise((resolve) => setTimeout(resolve, watchMs));
      const frames = context.recordsNow(run.index).frames.map((frame) => ({ frame, wallMs: frame.atWallMs }));
      const entry = run.result.audit.find((a) => a.backendId === context.backendId && a.mode !== 'observe');
      const stray = strayDeliveries(frames, budgetMs, scaled(DELIVERY_SLACK_MS), entry?.attempts);
      return findingsOf('budget.cleanup-not-permission', stray);
    },
  };
}
