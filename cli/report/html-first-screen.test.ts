// The first screen of a failing HTML report shows the problems and the first failure: checked
// on the rendered page's DOM with an estimate of where each line box falls (see
// test-support/first-screen.ts), for a small failing run and for a broadly failing one.
import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../runner/case-result.js';
import { PROBLEMS_SHOWN, renderHtml } from './html.js';
import { layout, SCREEN } from './test-support/first-screen.js';
import { sampleCases, sampleReport } from './test-support/sample-report.js';

/** A run failing everywhere: 30 requirements with unclassified failures, long errors and transcripts. */
function broadFailure(): CaseResult[] {
  const ids = ['AHP-FAIL-001', 'AHP-FAIL-002', 'AHP-CORE-003', 'AHP-CORE-004', 'AHP-DEC-001', 'AHP-DEC-002'];
  return Array.from({ length: 200 }, (_, i) => ({
    ...(sampleCases()[4] as CaseResult),
    name: `${ids[i % ids.length]}/case-${i}`,
    requirements: [ids[i % ids.length] as string],
    findings: [],
    errors: [`- a long failure message ${'that goes on '.repeat(40)}\n${'  at some frame\n'.repeat(30)}`],
    evidence: {
      frames: Array.from({ length: 80 }, (_, j) => ({ dir: 'out', at: j, text: `{"frame":${j}}` })),
    },
    stderrTail: Array.from({ length: 20 }, (_, j) => `stderr line ${j}`),
  }));
}

function firstScreen(html: string) {
  const boxes = layout(html);
  const find = (test: (text: string, tag: string) => boolean) =>
    boxes.find((b) => test(b.el.textContent ?? '', b.el.tagName));
  return { boxes, find };
}

describe('the HTML report’s first screen', () => {
  for (const [label, report] of [
    ['a run with a few problems', sampleReport()],
    ['a broadly failing run', sampleReport({ cases: [...sampleCases(), ...broadFailure()] })],
  ] as const) {
    it(`shows the verdict, the problems and the first failure (${label})`, () => {
      const html = renderHtml(report, { strict: false });
      const { boxes, find } = firstScreen(html);
      const verdict = find((t, tag) => tag === 'P' && t.startsWith('Verdict: not conformant'));
      const heading = find((t, tag) => tag === 'H2' && /^\d+ distinct problems?/.test(t));
      const failures = find((t, tag) => tag === 'H2' && t.startsWith('Failures ('));
      expect(verdict?.bottom).toBeLessThan(SCREEN.height);
      expect(heading?.top).toBeLessThan(SCREEN.height);
      // The first failure: its summary line, and the message under it, end on the first screen.
      const start = boxes.findIndex((b) => b === failures);
      const summary = boxes.slice(start).find((b) => b.el.tagName === 'SUMMARY');
      const message = boxes.slice(start).find((b) => b.el.tagName === 'PRE');
      expect(summary?.el.textContent).toBe('FAIL AHP-TB-001/transport:stdio-persistent/call-id');
      expect(message?.el.textContent).toContain('delivery 1 has tool.callId');
      expect(message?.bottom).toBeLessThan(SCREEN.height);
      // Every problem shown links to its first case; nothing before the first failure is a
      // table or an open transcript.
      const shown = Math.min(report.problems.length, PROBLEMS_SHOWN);
      const items = boxes.filter((b) => b.el.tagName === 'LI' && /^p\d+$/.test(b.el.id ?? ''));
      expect(items).toHaveLength(shown);
      const before = boxes.slice(0, start);
      expect(before.filter((b) => b.el.tagName === 'TR')).toEqual([]);
      expect(before.filter((b) => b.el.tagName === 'PRE')).toEqual([]);
    });
  }

  it('folds problems past the first few into one line, so the list stays short', () => {
    const report = sampleReport({ cases: [...sampleCases(), ...broadFailure()] });
    expect(report.problems.length).toBeGreaterThan(PROBLEMS_SHOWN);
    const { find } = firstScreen(renderHtml(report, { strict: false }));
    expect(
      find((t, tag) => tag === 'SUMMARY' && t === `${report.problems.length - PROBLEMS_SHOWN} more problems`),
    ).toBeDefined();
  });

  it('counts one folded problem in the singular', () => {
    const broad = sampleReport({ cases: [...sampleCases(), ...broadFailure()] });
    const report = { ...broad, problems: broad.problems.slice(0, PROBLEMS_SHOWN + 1) };
    const { find } = firstScreen(renderHtml(report, { strict: false }));
    expect(find((t, tag) => tag === 'SUMMARY' && t === '1 more problem')).toBeDefined();
  });

  it('keeps each failure’s transcript one click away: in a closed details right under it', () => {
    const { boxes } = firstScreen(renderHtml(sampleReport(), { strict: false }));
    const evidence = boxes.filter(
      (b) =>
        b.el.tagName === 'SUMMARY' && (b.el.textContent ?? '').startsWith('Evidence: the wire transcript'),
    );
    expect(evidence.length).toBeGreaterThan(0);
    // Closed: the transcript itself takes no room until opened.
    expect(boxes.some((b) => (b.el.textContent ?? '').includes('+412ms'))).toBe(false);
  });
});
