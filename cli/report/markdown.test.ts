import { describe, expect, it } from 'vitest';
import { evidenceMarkdown, fenced, inline, MAX_EVIDENCE_CHARS, renderMarkdown } from './markdown.js';
import type { CaseResult } from '../runner/case-result.js';
import { buildReport } from './report.js';
import { HOSTILE, sampleReport } from './test-support/sample-report.js';

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
  it('states the claim, the verdict and one row per requirement', () => {
    const report = sampleReport();
    const md = renderMarkdown(report, { strict: false });
    expect(md.startsWith('# AHP conformance report: harness\n')).toBe(true);
    expect(md).toContain('**Verdict: not conformant.**');
    expect(md).toContain('| Bindings | stdio, http |');
    expect(md).toContain('| Profiles | base, tool-interception |');
    for (const r of report.requirements) expect(md).toContain(`| ${r.id} | ${r.level} |`);
    expect(md).toContain('## Run errors');
    expect(md).toContain('stale: AHP-REG-001/no-policy passes now; remove line 2');
  });

  it('details each failure with its errors and its frames, and lists untested cases with their reason', () => {
    const md = renderMarkdown(sampleReport(), { strict: false });
    const failures = md.slice(md.indexOf('## Failures'), md.indexOf('## Untested'));
    expect(failures).toContain('### AHP-FAIL-002/transport:stdio-persistent/late-reply');
    expect(failures).toContain('expected deny, got continue');
    expect(failures).toContain('+412ms');
    expect(failures).toContain('Driver stderr during the case (last lines):');
    expect(failures).toContain('driver: invoking evt-1');
    // Passing cases are counted, not detailed.
    expect(failures).not.toContain('AHP-REG-001/no-policy\n');
    expect(md.slice(md.indexOf('## Untested'))).toContain(
      '- AHP-CORE-004/retry-identity: the driver cannot configure retries',
    );
  });

  it('says conformant when no MUST failed, and lets --strict turn SHOULD failures into a failing verdict', () => {
    const report = buildReport({
      version: '0.1.0',
      role: 'backend',
      target: { binding: 'stdio' },
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
    expect(md).toContain('**Verdict: conformant.** No MUST requirement failed (1 SHOULD warning(s)).');
    // The body agrees with the headline: the requirement warns, the case is listed as a warning.
    expect(md).toMatch(/\| AHP-VER-001 \| MUST \| warn \| 1 warn \|/);
    expect(md).not.toContain('## Failures');
    expect(md).not.toContain('FAIL');
    expect(md.slice(md.indexOf('## Warnings'))).toContain('warn · SHOULD · requirements AHP-VER-001');
    expect(renderMarkdown(report, { strict: true })).toContain('1 SHOULD case(s) failed under --strict');
    // The claim's coverage: per profile, and each requirement that was not checked with its reason.
    expect(md).toMatch(/## Claim coverage[\s\S]*\| stdio \| 0 \| 1 \| 0 \|/);
    expect(md).toContain('- stdio: AHP-STDIO-001 untested: no case of it ran');
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
