import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../runner/case-result.js';
import type { Finding } from '../../suites/common/index.js';
import {
  createConsoleProgress,
  PROGRESS_ERROR_LINES,
  progressLines,
  repeatLines,
  statusLabel,
} from './progress.js';

function sink() {
  const out = new PassThrough();
  let written = '';
  out.on('data', (c: Buffer) => (written += c.toString()));
  return { out, text: () => written };
}

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
    expect(lines.at(-1)).toBe('         ... 3 more lines in the report');
    expect(progressLines(result({ status: 'skipped' }))).toEqual([]);
  });

  it('off a terminal: a line per failure, a progress line each tenth, and never 5 s of quiet', () => {
    let t = 0;
    const { out, text } = sink();
    const progress = createConsoleProgress(out, 'backend suite', { live: false, timer: false, now: () => t });
    progress.phase('Starting the backend: node b.mjs');
    t = 3_000;
    progress.tick();
    // Quiet for 4 s: the next tick would be past the 5 s bound, so this one speaks.
    t = 4_000;
    progress.tick();
    t = 5_500;
    progress.onFilesCollected(1);
    progress.onPlanned(Array.from({ length: 20 }, (_, i) => `c${i}`));
    progress.onCase(result({ name: 'c0' }));
    progress.onCase(result({ name: 'c1', status: 'fail', errors: ['boom'] }));
    progress.onCase(result({ name: 'c2', status: 'untested', note: 'no deny input' }));
    t = 12_000;
    progress.tick();
    expect(progress.finished).toBe(3);
    expect(text().split('\n')).toEqual([
      'Starting the backend: node b.mjs',
      'Starting the backend: node b.mjs: still going after 4 s',
      'backend suite (1 suite file)',
      'FAIL     c1 (7 ms)',
      '         boom',
      'progress: 2/20 cases (10%), 1 failed, 0:00 elapsed, estimating time left',
      // 6.5 s for 3 of 20 (no recorded times: each case weighs the same).
      'progress: 3/20 cases (15%), 1 failed, 0:07 elapsed, about 0:37 left',
      '',
    ]);
  });

  it('shows a problem once, with its evidence: a later case that only repeats it is one line', () => {
    const { out, text } = sink();
    const progress = createConsoleProgress(out, undefined, { live: false, timer: false, now: () => 0 });
    const basis = {
      document: 'spec/draft/base/capabilities.md',
      anchor: 'AHP-CAP-001',
      level: 'MUST',
      rule: 'A harness advertises only effects it can enforce.',
    };
    const finding = (rule: string, summary: string) =>
      ({
        rule,
        requirement: 'AHP-CAP-001',
        level: 'MUST',
        basis,
        summary,
        message: summary,
      }) as unknown as Finding;
    const deny = finding('capability.beyond-event', 'An effect its event cannot take');
    const other = finding('capability.unknown', 'An effect the draft does not define');
    progress.onFilesCollected(1);
    progress.onPlanned(['a', 'b', 'c']);
    progress.onCase(result({ name: 'a', status: 'fail', errors: ['deny at tool.after'], findings: [deny] }));
    progress.onCase(result({ name: 'b', status: 'fail', errors: ['deny at turn.start'], findings: [deny] }));
    progress.onCase(
      result({ name: 'c', status: 'fail', errors: ['deny', 'bogus'], findings: [deny, other] }),
    );
    const lines = text().split('\n');
    expect(lines).toContain('         deny at tool.after');
    expect(lines).toContain(
      '         breaks spec/draft/base/capabilities.md#AHP-CAP-001 (MUST): A harness advertises only effects it can enforce.',
    );
    expect(lines).toContain(
      '         the same problem as a (An effect its event cannot take): evidence above',
    );
    expect(lines).not.toContain('         deny at turn.start');
    // A case with a problem not shown yet is shown in full.
    expect(lines).toContain('         bogus');
  });

  it('on a terminal: one live line rewritten in place, failures printed above it', () => {
    let t = 0;
    const { out, text } = sink();
    const progress = createConsoleProgress(out, undefined, {
      live: true,
      timer: false,
      now: () => t,
      columns: 60,
    });
    progress.onFilesCollected(2);
    progress.onPlanned(['a', 'b']);
    progress.onCase(result({ name: 'a' }));
    t = 4_000;
    progress.onCase(result({ name: 'b', status: 'fail', errors: ['boom'] }));
    progress.finish();
    const CLEAR = '\r\x1b[2K';
    expect(text().split(CLEAR)).toEqual([
      '',
      '1/2 cases (50%), 0 failed, 0:00 elapsed, estimating time l…',
      'FAIL     b (7 ms)\n         boom\n',
      '2/2 cases (100%), 1 failed, 0:04 elapsed, about 0:00 left …',
      '',
    ]);
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
      '         driver stderr during the case (last 1 line):',
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
      'Repeated 1 timing case:',
      '  FLAKY  AHP-RPC-001/transport:http/reply: 3 runs, 2 passed, 1 failed',
    ]);
  });
});
