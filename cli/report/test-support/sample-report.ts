// A report with every status, a case under two requirements, hostile text and a baseline, built
// through buildReport so the reporter tests see what a real run produces.
import type { CaseResult } from '../../runner/case-result.js';
import { buildReport, type Report } from '../report.js';

/** Text that breaks naive XML/HTML writers: markup, quotes, an ampersand, a control character, a lone surrogate. */
export const HOSTILE = `<script>alert("x")</script> & 'q' \u0001 \uD800 ]]>`;

function result(over: Partial<CaseResult> & { name: string }): CaseResult {
  return {
    file: 'suites/harness/families/x.conformance.ts',
    requirements: [over.name.split('/')[0] as string],
    level: 'MUST',
    transports: ['http'],
    profiles: ['tool-interception'],
    status: 'pass',
    durationMs: 12,
    errors: [],
    ...over,
  };
}

/** The cases of the sample report. */
export function sampleCases(): CaseResult[] {
  return [
    result({
      name: 'AHP-FAIL-001/transport:http/policy:fail-closed/hang',
      evidence: { frames: [{ dir: 'out', at: 0, text: '{"jsonrpc":"2.0"}' }] },
    }),
    result({
      name: 'AHP-FAIL-002/transport:stdio-persistent/late-reply',
      requirements: ['AHP-FAIL-002', 'AHPX-DL-001'],
      status: 'fail',
      errors: [`expected deny, got continue\n  at case ${HOSTILE}`],
      evidence: { frames: [{ dir: 'in', at: 412, text: HOSTILE }] },
      repeat: { runs: 3, passed: 2, failed: 1, verdict: 'flaky' },
      note: 'flaky: passed 2 of 3 runs',
      stderrTail: ['driver: invoking evt-1', `driver: ${HOSTILE}`],
      durationMs: 1543,
    }),
    result({
      name: 'AHPX-SYN-002/generic-reason',
      level: 'SHOULD',
      status: 'fail',
      errors: ['reason leaks the URL'],
    }),
    result({
      name: 'AHP-CORE-004/retry-identity',
      status: 'untested',
      note: 'the driver cannot configure retries',
    }),
    result({
      name: 'AHP-HTTP-001/status-500',
      status: 'known-failure',
      errors: ['treated 500 as deny'],
      note: 'known failure (line 1): upstream bug',
    }),
    result({ name: 'AHP-STDIO-001/crlf', status: 'skipped', note: 'not selected' }),
    result({ name: 'AHP-REG-001/no-policy', status: 'pass' }),
  ];
}

/** The sample report: harness role, a stale and an unmatched baseline entry, one run error. */
export function sampleReport(over: Partial<Parameters<typeof buildReport>[0]> = {}): Report {
  return buildReport({
    version: '0.1.0',
    role: 'harness',
    target: { kind: 'driver', command: ['node', 'driver.mjs'], label: `node driver.mjs ${HOSTILE}` },
    claim: { role: 'harness', bindings: ['stdio', 'http'], profiles: ['base', 'tool-interception'] },
    seed: 1234,
    startedAt: '2026-11-30T18:00:00.123Z',
    durationMs: 4321,
    cases: sampleCases(),
    runErrors: [`suites/harness/x.conformance.ts: ${HOSTILE}`],
    options: { seed: 1234, runs: 50, strict: false },
    baseline: {
      file: 'known-failures.txt',
      tolerated: 1,
      stale: [{ case: 'AHP-REG-001/no-policy', pattern: 'AHP-REG-001', line: 2 }],
      unmatched: [{ pattern: 'AHP-AUTH-001/*', line: 3 }],
    },
    ...over,
  });
}
