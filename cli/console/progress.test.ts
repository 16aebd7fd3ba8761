import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../runner/case-result.js';
import {
  createConsoleProgress,
  PROGRESS_ERROR_LINES,
  progressLines,
  repeatLines,
  statusLabel,
} from './progress.js';

function result(over: Partial<CaseResult>): CaseResult {
  return {
    name: 'AHP-RPC-001/transport:http/reply',
    file: 'suites/backend/backend.conformance.ts',
    requirements: ['AHP-RPC-001'],
    level: 'MUST',
    transports: ['http'],
    profiles: ['base'],
    status: 'pass',
    durationMs: 7,
    errors: [],
    ...over,
  };
}

describe('console progress', () => {
  it('labels outcomes, a SHOULD failure as a warning', () => {
    expect(statusLabel({ status: 'fail', level: 'MUST' })).toBe('FAIL');
    expect(statusLabel({ status: 'fail', level: 'SHOULD' })).toBe('WARN');
    expect(statusLabel({ status: 'untested', level: 'MUST' })).toBe('UNTESTED');
    expect(statusLabel({ status: 'known-failure', level: 'MUST' })).toBe('KNOWN');
  });

  it('prints a line per case, the reason of an untested case and the first lines of a failure', () => {
    expect(progressLines(result({}))).toEqual(['PASS     AHP-RPC-001/transport:http/reply (7 ms)']);
    expect(progressLines(result({ status: 'untested', note: 'no --deny-input' }))[1]).toBe(
      '         no --deny-input',
    );
    const many = Array.from({ length: PROGRESS_ERROR_LINES + 3 }, (_, i) => `line ${i}`).join('\n');
    const lines = progressLines(result({ status: 'fail', errors: [many] }));
    expect(lines[0]).toMatch(/^FAIL {5}AHP-RPC-001/);
    expect(lines).toHaveLength(PROGRESS_ERROR_LINES + 2);
    expect(lines.at(-1)).toBe('         ... 3 more line(s) in the report');
    expect(progressLines(result({ status: 'skipped' }))).toEqual([]);
  });

  it('writes to its stream as cases finish and counts them', () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (c: Buffer) => (text += c.toString()));
    const progress = createConsoleProgress(out, 'backend suite');
    progress.onFilesCollected(1);
    progress.onCase(result({}));
    progress.onCase(result({ name: 'AHP-VER-001/x', status: 'fail', errors: ['boom'] }));
    expect(progress.finished).toBe(2);
    expect(text).toBe(
      'backend suite (1 suite file(s))\nPASS     AHP-RPC-001/transport:http/reply (7 ms)\nFAIL     AHP-VER-001/x (7 ms)\n         boom\n',
    );
  });

  it('shows the driver stderr and the first frames under a failing case, and where the transcript is', () => {
    const lines = progressLines(
      result({
        status: 'fail',
        errors: ['boom'],
        stderrTail: ['panic: oh no'],
        frames: ['> #1 http conn 1 at 5 ms: {}'],
        framesTotal: 3,
      }),
      { transcriptAt: 'reports/report.json' },
    );
    expect(lines.slice(1)).toEqual([
      '         boom',
      '         driver stderr during the case (last 1 line(s)):',
      '           | panic: oh no',
      '         frames the mock recorded (3 in all):',
      '           > #1 http conn 1 at 5 ms: {}',
      "           full transcript: the case's evidence in reports/report.json",
    ]);
  });

  it('prints the case during which the target stopped, and nothing for cases left unrun', () => {
    const stopped = result({ status: 'skipped', note: 'not judged: The driver "x" exited.' });
    expect(progressLines(stopped)).toEqual([
      'STOPPED  AHP-RPC-001/transport:http/reply (7 ms)',
      '         not judged: The driver "x" exited.',
    ]);
  });

  it('lists each repeated case with its runs and verdict', () => {
    const repeat = { runs: 3, passed: 2, failed: 1, verdict: 'flaky' as const };
    expect(repeatLines([result({ repeat }), result({ name: 'other' })])).toEqual([
      'Repeated 1 timing case(s):',
      '  FLAKY  AHP-RPC-001/transport:http/reply: 3 runs, 2 passed, 1 failed',
    ]);
  });
});
