import { describe, expect, it } from 'vitest';
import {
  outcomesOfLiveLog,
  outcomesOfReport,
  percent,
  summarize,
  summaryLines,
  type MutantOutcome,
} from './summary.js';
import type { EquivalentMutant } from './equivalents.js';

const at = (line: number, column = 1) => ({ start: { line, column } });
const mutant = (
  id: string,
  status: string,
  line: number,
  extra: Partial<MutantOutcome> = {},
): MutantOutcome => ({
  id,
  fileName: '/root/reference-harness/budget.ts',
  mutatorName: 'ConditionalExpression',
  replacement: 'true',
  status,
  location: at(line),
  ...extra,
});
const relative = (file: string) => file.replace('/root/', '');

describe('mutation summary', () => {
  it('scores detected over detected plus undetected, leaving out mutants that never ran', () => {
    const summary = summarize(
      'd',
      { seconds: 10, incremental: false },
      [
        mutant('1', 'Killed', 1),
        mutant('2', 'Timeout', 2),
        mutant('3', 'Survived', 3),
        mutant('4', 'NoCoverage', 4),
        mutant('5', 'CompileError', 5),
        mutant('6', 'Ignored', 6),
      ],
      [],
      relative,
    );
    expect(summary.score).toBe(50);
    expect(summary.totals).toEqual({
      mutants: 6,
      killed: 1,
      timeout: 1,
      survived: 1,
      noCoverage: 1,
      equivalent: 0,
      notRun: 2,
    });
    expect(summary.files['reference-harness/budget.ts']).toEqual({
      mutants: 6,
      detected: 2,
      undetected: 2,
      equivalent: 0,
      score: 50,
    });
  });

  it('leaves listed equivalents out of the score and keeps them, with their reason, among the undetected', () => {
    const equivalent: EquivalentMutant = {
      file: 'reference-harness/budget.ts',
      line: 3,
      column: 1,
      mutator: 'ConditionalExpression',
      replacement: 'true',
      reason: 'the branch only names the cause in a log line',
    };
    const summary = summarize(
      'd',
      { seconds: 10, incremental: false },
      [mutant('1', 'Killed', 1), mutant('3', 'Survived', 3), mutant('4', 'Survived', 4)],
      [equivalent],
      relative,
    );
    expect(summary.score).toBe(50);
    expect(summary.totals.equivalent).toBe(1);
    expect(summary.undetected.map((u) => [u.line, u.equivalent])).toEqual([
      [3, 'the branch only names the cause in a log line'],
      [4, undefined],
    ]);
    expect(summary.staleEquivalents).toEqual([]);
  });

  it('matches an equivalent only by file, position, mutator and replacement, and reports one that matched nothing', () => {
    const listed: EquivalentMutant = {
      file: 'reference-harness/budget.ts',
      line: 3,
      column: 1,
      mutator: 'ConditionalExpression',
      replacement: 'false',
      reason: 'r',
    };
    const summary = summarize(
      'd',
      { seconds: 1, incremental: false },
      [mutant('3', 'Survived', 3)],
      [listed],
      relative,
    );
    expect(summary.score).toBe(0);
    expect(summary.undetected[0]?.equivalent).toBeUndefined();
    expect(summary.staleEquivalents).toEqual([listed]);
  });

  it('tells two mutants that share file, position, mutator and replacement apart by where they end', () => {
    // A condition and its left operand start at the same place, and each may become `true`.
    const whole = { start: { line: 3, column: 7 }, end: { line: 3, column: 48 } };
    const operand = { start: { line: 3, column: 7 }, end: { line: 3, column: 23 } };
    const listed: EquivalentMutant = {
      file: 'reference-harness/budget.ts',
      line: 3,
      column: 7,
      mutator: 'ConditionalExpression',
      replacement: 'true',
      end: { line: 3, column: 23 },
      reason: 'the left operand is true for every input anyway',
    };
    const both = [
      mutant('1', 'Survived', 3, { location: whole }),
      mutant('2', 'Survived', 3, { location: operand }),
    ];
    const judge = (entries: EquivalentMutant[]) =>
      summarize('d', { seconds: 1, incremental: false }, both, entries, relative);
    const summary = judge([listed]);
    expect(summary.totals).toMatchObject({ survived: 1, equivalent: 1 });
    expect(summary.undetected.map((u) => [u.end, u.equivalent])).toEqual([
      [{ line: 3, column: 23 }, 'the left operand is true for every input anyway'],
      [{ line: 3, column: 48 }, undefined],
    ]);
    // An entry without an end lists every mutant with its four.
    const { end: _end, ...withoutEnd } = listed;
    expect(judge([withoutEnd]).totals).toMatchObject({ survived: 0, equivalent: 2 });
  });

  it('rounds the percentage down, so a score never claims more than was measured', () => {
    expect(percent(2, 3)).toBe(66.66);
    expect(percent(0, 0)).toBe(100);
  });

  it('prints the time, the score and every undetected mutant not listed as equivalent', () => {
    const summary = summarize(
      'what it measures',
      { seconds: 3725, incremental: true },
      [mutant('1', 'Killed', 1), mutant('2', 'Survived', 2)],
      [],
      relative,
    );
    const lines = summaryLines('harness', summary);
    expect(lines[0]).toBe('mutation harness: score 50.00% (what it measures)');
    expect(lines[1]).toContain('62 min 5 s (incremental)');
    expect(lines).toContain('    reference-harness/budget.ts:2:1 ConditionalExpression -> true (Survived)');
  });
});

describe('a StrykerJS report', () => {
  it('gives its mutants with the file each is in', () => {
    const report = {
      files: {
        'reference-harness/budget.ts': {
          mutants: [
            { id: '1', mutatorName: 'BlockStatement', replacement: '{}', status: 'Killed', location: at(3) },
          ],
        },
      },
    };
    expect(outcomesOfReport(report)).toEqual([
      {
        id: '1',
        fileName: 'reference-harness/budget.ts',
        mutatorName: 'BlockStatement',
        replacement: '{}',
        status: 'Killed',
        location: at(3),
      },
    ]);
  });
});

describe('a live log', () => {
  it('gives the planned count and each verdict, so a cut-off run can still be summarized', () => {
    const log = [
      JSON.stringify({ planned: 3 }),
      JSON.stringify({
        file: 'reference-harness/budget.ts',
        line: 3,
        column: 1,
        mutator: 'BlockStatement',
        replacement: '{}',
        status: 'Survived',
      }),
      JSON.stringify({
        file: 'reference-harness/budget.ts',
        line: 5,
        column: 2,
        endLine: 5,
        endColumn: 9,
        mutator: 'BlockStatement',
        replacement: '{}',
        status: 'Killed',
      }),
      '',
    ].join('\n');
    const { planned, mutants } = outcomesOfLiveLog(log);
    expect(planned).toBe(3);
    // A log written before verdicts carried their end gives none.
    expect(mutants).toEqual([
      {
        id: '0',
        fileName: 'reference-harness/budget.ts',
        mutatorName: 'BlockStatement',
        replacement: '{}',
        status: 'Survived',
        location: at(3),
      },
      {
        id: '1',
        fileName: 'reference-harness/budget.ts',
        mutatorName: 'BlockStatement',
        replacement: '{}',
        status: 'Killed',
        location: { start: { line: 5, column: 2 }, end: { line: 5, column: 9 } },
      },
    ]);
  });
});
