import { describe, expect, it } from 'vitest';
import { NOT_SELECTED } from '../pipeline/unselected.js';
import type { Report } from '../report/report.js';
import { consoleView } from './run-console.js';

describe('consoleView', () => {
  it('leaves out the requirements none of whose cases the selection chose, and keeps the rest whole', () => {
    const chosen = {
      id: 'AHP-CORE-001',
      cases: [
        { name: 'a', status: 'pass' },
        { name: 'b', status: 'skipped', note: NOT_SELECTED },
      ],
    };
    const outside = { id: 'AHP-FAIL-001', cases: [{ name: 'c', status: 'skipped', note: NOT_SELECTED }] };
    const report = { requirements: [chosen, outside], summary: { skipped: 2 } } as unknown as Report;
    expect(consoleView(report)).toEqual({ ...report, requirements: [chosen] });
    const all = { requirements: [chosen] } as unknown as Report;
    expect(consoleView(all)).toBe(all);
  });
});
