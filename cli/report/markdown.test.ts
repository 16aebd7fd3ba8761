import { describe, expect, it } from 'vitest';
import {
  evidenceMarkdown,
  fenced,
  inline,
  MAX_EVIDENCE_CHARS,
  MAX_MARKDOWN_BYTES,
  renderMarkdown,
} from './markdown.js';
import type { CaseResult } from '../runner/case-result.js';
import { buildReport } from './report.js';
import { HOSTILE, sampleCases, sampleReport } from './test-support/sample-report.js';

function caseResult(name: string): CaseResult {
  const id = name.split('/')[0] as string;
  return {
    name,
    file: 'x',
    requirements: [id],
    level: 'MUST',
    transports: ['stdio-persistent'],
    profiles: [],
    status: 'pass',
    durationMs: 1,
    errors: [],
  };
}

describe('Markdown report', () => {
  it('opens with the verdict, how much was exercised, and the distinct problems with their sentences', () => {
    const report = sampleReport();
    const md = renderMarkdown(report, { strict: false });
    expect(
      md.startsWith(
        '# AHP conformance report: harness\n\n**Verdict: not conformant: 2 problems fail the run',
      ),
    ).toBe(true);
    expect(md).toContain(
      '7 of 11 cases judged; 1 untested (the driver cannot configure retries); 2 blocked (by p1)',
    );
    expect(md).toMatch(/^- base: partly exercised \(1 of \d+ requirements checked; not checked: /m);
    const problems = md.slice(md.indexOf('## 4 distinct problems'), md.indexOf('## Run errors'));
    expect(problems).toContain(
      '1. **AHP-TB-001 MUST** (p1): the call id is sent as tool.callId, not call.id',
    );
    expect(problems).toContain(
      '   - breaks `spec/draft/server/lifecycle-observation.md#AHP-TB-001`: a tool.before event carries the call id in call.id',
    );
    expect(problems).toContain(
      '   - first seen in [AHP-TB-001/transport:stdio-persistent/call-id](#ahp-tb-001transportstdio-persistentcall-id): ',
    );
    expect(problems).toContain('   - explains 1 case that failed, blocks 2 cases.');
    expect(problems).toContain('Known failure (line 1): upstream bug.');
    // The problems come before the per-case detail, and the run's details after it.
    expect(md.indexOf('## 4 distinct problems')).toBeLessThan(md.indexOf('## Failures'));
    expect(md.indexOf('## Failures')).toBeLessThan(md.indexOf('## Run details'));
    for (const r of report.requirements) expect(md).toContain(`| ${r.id} | ${r.level} |`);
    expect(md).toContain('| Driver | node driver.mjs |');
    expect(md).toContain(
      '- stale: line 2 (AHP-REG-001) matches no failing case any more (1 pass); remove the line',
    );
    expect(md).toContain(
      '- narrow: line 1 (AHP-HTTP-001/\\*\\*) also matches 1 passing case: AHP-HTTP-001/status-200',
    );
  });

  it('details each failure by problem, with its errors, and folds its frames and stderr away', () => {
    const md = renderMarkdown(sampleReport(), { strict: false });
    const failures = md.slice(md.indexOf('## Failures'), md.indexOf('## Warnings'));
    expect(failures.indexOf('### AHP-TB-001/')).toBeLessThan(failures.indexOf('### AHP-FAIL-002/'));
    expect(failures).toContain('Problem p2: a reply after the deadline decided the call');
    expect(failures).toContain('expected deny, got continue');
    const folded = failures.slice(failures.indexOf('### AHP-FAIL-002/'));
    expect(folded.indexOf('<details><summary>Evidence (wire transcript)</summary>')).toBeLessThan(
      folded.indexOf('+412ms'),
    );
    expect(folded.indexOf('+412ms')).toBeLessThan(folded.indexOf('</details>'));
    expect(folded.indexOf('driver: invoking evt-1')).toBeLessThan(folded.indexOf('</details>'));
    // Passing cases are counted, not detailed.
    expect(md).not.toContain('### AHP-REG-001/no-policy');
    expect(md.slice(md.indexOf('## Blocked'))).toContain('- AHP-CORE-004/retry-keeps-call-id: blocked by p1');
    expect(md.slice(md.indexOf('## Untested'))).toContain(
      '- AHP-CORE-004/retry-identity: the driver cannot configure retries',
    );
  });

  it('says conformant when no MUST failed, and lets --strict turn SHOULD failures into a failing verdict', () => {
    const report = buildReport({
      version: '0.1.0',
      role: 'backend',
      target: {
        binding: 'stdio',
        command: 'node',
        args: ['b.mjs'],
        lifecycle: 'persistent',
        deadlineMs: 2000,
        denyInput: null,
      },
      claim: { role: 'backend', bindings: ['stdio'], profiles: ['base', 'tool-interception', 'stdio'] },
      seed: 0,
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 1,
      runErrors: [],
      cases: [
        { ...caseResult('AHP-RPC-001/transport:stdio-persistent/reply'), status: 'pass' },
        {
          ...caseResult('AHP-VER-001/transport:stdio-persistent/code'),
          level: 'SHOULD',
          status: 'fail',
          errors: ['code -32603'],
        },
      ],
    });
    const md = renderMarkdown(report, { strict: false });
    expect(md).toContain('# AHP conformance report: backend');
    expect(md).toContain(
      '**Verdict: conformant: all 2 cases judged, no MUST requirement failed; 1 SHOULD warning.**',
    );
    expect(md).toContain('| Backend (stdio) | node b.mjs |');
    // The body agrees with the headline: the requirement warns, the case is listed as a warning.
    expect(md).toMatch(/\| AHP-VER-001 \| MUST \| warn \| 1 warn \|/);
    expect(md).not.toContain('## Failures');
    expect(md).not.toContain('FAIL');
    expect(md.slice(md.indexOf('## Warnings'))).toContain('warn · SHOULD · requirements AHP-VER-001');
    expect(renderMarkdown(report, { strict: true })).toContain('1 SHOULD warning under --strict');
    expect(md).toContain('- stdio: not exercised (0 of 1 requirement checked; not checked: AHP-STDIO-001)');
    expect(md).toContain('- stdio: AHP-STDIO-001 untested: no case of it ran');
  });

  it('stays within its byte cap, cutting whole entries with a note that names the full report', () => {
    const many: CaseResult[] = Array.from({ length: 400 }, (_, i) => ({
      ...caseResult(`AHP-FAIL-001/case-${i}`),
      status: 'fail',
      errors: [`- failure ${i} ${'é'.repeat(500)}`],
      evidence: { frames: [{ dir: 'out', at: 1, text: 'x'.repeat(3000) }] },
    }));
    const report = sampleReport({ cases: [...sampleCases(), ...many] });
    const whole = renderMarkdown(report, { strict: false, maxBytes: 10 * 1024 * 1024 });
    expect(whole).not.toContain('This report is cut');
    const max = 64 * 1024;
    const md = renderMarkdown(report, { strict: false, maxBytes: max, fullReport: 'out/report.html' });
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(max);
    expect(md).toMatch(
      /\*\*This report is cut at 64 KiB to fit a CI job summary: \d+ more entries are left out; the full report is out\/report.html\.\*\*\n$/,
    );
    // What is kept is whole: the opening and the first failures, every fence closed.
    expect(md).toContain('## 5 distinct problems');
    expect(md).toContain('### AHP-TB-001/transport:stdio-persistent/call-id');
    expect((md.match(/^```/gm) ?? []).length % 2).toBe(0);
    expect(renderMarkdown(report, { strict: false, maxBytes: max })).toContain(
      'write the full report with --reporter html or --reporter json',
    );
    // The default cap fits a GitHub job summary (1 MiB a step) with room to spare.
    expect(MAX_MARKDOWN_BYTES).toBe(512 * 1024);
    expect(Buffer.byteLength(renderMarkdown(report, { strict: false }))).toBeLessThanOrEqual(
      MAX_MARKDOWN_BYTES,
    );
  });

  it('keeps hostile text inert: no raw HTML in cells and no fence a frame could close', () => {
    const md = renderMarkdown(sampleReport(), { strict: false });
    const outsideFences = md.replace(/(`{3,})[^\n]*\n[\s\S]*?\n\1/g, '');
    expect(md).toContain('<script>');
    expect(outsideFences).not.toContain('<script>');
    expect(inline('a | b\nc <d>')).toBe('a \\| b c &lt;d&gt;');
    const block = fenced('before ``` after');
    expect(block.startsWith('````\n')).toBe(true);
    expect(block.endsWith('\n````')).toBe(true);
    expect(HOSTILE.length).toBeGreaterThan(0);
  });

  it('renders frame lists as transcripts, other evidence as JSON, and cuts oversized evidence', () => {
    const md = evidenceMarkdown({
      findings: ['step 1: wrong id'],
      transcript: [
        { step: 1, atMs: 0, dir: 'out', text: '{"id":"a"}' },
        { step: 1, atMs: 3.5, dir: 'in', text: '{"id":"b"}' },
      ],
    });
    expect(md).toContain('"step 1: wrong id"');
    expect(md).toMatch(/#1 \+0ms\s+-> \{"id":"a"\}/);
    expect(md).toMatch(/#1 \+3\.5ms\s+<- \{"id":"b"\}/);
    const big = evidenceMarkdown({ blob: 'x'.repeat(MAX_EVIDENCE_CHARS + 10) });
    expect(big).toMatch(/\.\.\. \(\d+ more characters in report.json\)/);
    expect(big.length).toBeLessThan(MAX_EVIDENCE_CHARS + 200);
  });
});
