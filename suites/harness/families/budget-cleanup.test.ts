import { describe, expect, it } from 'vitest';
import type { WireFrame } from '../kit/wire-records.js';
import { strayDeliveries, type TimedFrame } from './budget-cleanup.js';

const BUDGET = 700;
const SLACK = 250;

function frame(method: 'hooks/intercept' | 'hooks/observe', wallMs: number, delivery: number): TimedFrame {
  const kind = method === 'hooks/intercept' ? 'request' : 'notification';
  return { wallMs, frame: { method, kind, delivery, callId: 'call-1' } as unknown as WireFrame };
}

describe('strayDeliveries (AHPX-BUD-005)', () => {
  it('accepts an expired call whose requests are the audited attempts and that started no observation', () => {
    const frames = [frame('hooks/intercept', 1000, 1), frame('hooks/intercept', 1300, 2)];
    expect(strayDeliveries(frames, BUDGET, SLACK, 2)).toEqual([]);
    expect(strayDeliveries([], BUDGET, SLACK, 1)).toEqual([]);
  });

  it('flags a request beyond the attempts the audit counts', () => {
    const frames = [frame('hooks/intercept', 1000, 1), frame('hooks/intercept', 1705, 2)];
    expect(strayDeliveries(frames, BUDGET, SLACK, 1).join('\n')).toMatch(/2 intercept requests .* 1 attempt/);
  });

  it('without an attempts figure, flags only a request later than the budget plus the slack', () => {
    const inside = [frame('hooks/intercept', 1000, 1), frame('hooks/intercept', 1600, 2)];
    expect(strayDeliveries(inside, BUDGET, SLACK, undefined)).toEqual([]);
    const late = [frame('hooks/intercept', 1000, 1), frame('hooks/intercept', 2000, 2)];
    expect(strayDeliveries(late, BUDGET, SLACK, undefined).join('\n')).toMatch(
      /\(delivery 2\).*past the budget/,
    );
  });

  it('flags an observation that arrives as the budget runs out, not one sent alongside the request', () => {
    const alongside = [frame('hooks/intercept', 1000, 1), frame('hooks/observe', 1020, 2)];
    expect(strayDeliveries(alongside, BUDGET, SLACK, 1)).toEqual([]);
    const atExpiry = [frame('hooks/intercept', 1000, 1), frame('hooks/observe', 1690, 2)];
    expect(strayDeliveries(atExpiry, BUDGET, SLACK, 1).join('\n')).toMatch(/observation started/);
    const withoutRequest = [frame('hooks/observe', 1690, 1)];
    expect(strayDeliveries(withoutRequest, BUDGET, SLACK, 1).join('\n')).toMatch(
      /never delivered its request/,
    );
  });
});
