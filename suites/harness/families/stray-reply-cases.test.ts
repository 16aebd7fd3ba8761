import { describe, expect, it } from 'vitest';
import { HARNESS_MARGINS } from '../kit/timing.js';
import { deriveExpectation } from '../kit/expectation.js';
import { LIVE_DENY_REASON, STRAY_PAUSE_MS, STRAY_REPLY_ID, strayReplyCases } from './stray-reply-cases.js';

const cases = strayReplyCases();
const byName = (what: string) => cases.filter((c) => c.name.endsWith(`/${what}`));

describe('the stray-reply cases', () => {
  it('run on persistent stdio only, under both policies, each judged under the correlation rule', () => {
    expect(cases).toHaveLength(6);
    expect(new Set(cases.map((c) => c.transport))).toEqual(new Set(['stdio-persistent']));
    expect(new Set(cases.map((c) => c.policy))).toEqual(new Set(['fail-open', 'fail-closed']));
    for (const c of cases) {
      for (const step of [c, ...(c.then ?? [])]) {
        expect(deriveExpectation(c, step, HARNESS_MARGINS.answerDeadlineMs).rule, c.name).toBe(
          'stdio.correlate-by-id',
        );
      }
    }
  });

  it('write the stray reply first and the live deny a pause later, well inside the answer deadline', () => {
    for (const c of byName('unknown-id-before-live-reply')) {
      if (c.behaviour.kind !== 'raw') throw new Error(`${c.name} is not raw`);
      const [stray, live] = c.behaviour.chunks.map((chunk) => ({
        at: chunk.afterMs ?? 0,
        text: 'text' in chunk ? chunk.text : '',
      }));
      expect(JSON.parse(stray?.text ?? '')).toMatchObject({ id: STRAY_REPLY_ID, result: { effects: [] } });
      expect(live?.text).toContain(LIVE_DENY_REASON);
      expect(live?.at).toBeGreaterThanOrEqual(STRAY_PAUSE_MS);
      expect(4 * (live?.at ?? Infinity)).toBeLessThan(HARNESS_MARGINS.answerDeadlineMs);
    }
  });

  it('expect the live deny as an explicit one, never synthetic, under either policy', () => {
    for (const c of cases) {
      const last = [c, ...(c.then ?? [])].at(-1);
      if (!last) throw new Error('no step');
      expect(deriveExpectation(c, last, HARNESS_MARGINS.answerDeadlineMs), c.name).toMatchObject({
        decision: 'deny',
        synthetic: false,
        audit: { outcome: 'deny' },
      });
    }
  });

  it('share the observer with the interceptor backend', () => {
    for (const c of byName('observer-answer-before-next-intercept')) expect(c.observe?.entry).toBe('shared');
  });
});
