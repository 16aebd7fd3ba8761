// A report with every status, a case under two requirements, hostile text, findings that group
// into problems (one of them blocking cases), and a baseline, built through buildReport so the
// reporter tests see what a real run produces.
import { FINDING_RANK, type Finding } from '../../../suites/common/index.js';
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

/** The root problem of the sample: the call id is not where the draft puts it. */
export const CALL_ID: Finding = {
  rule: 'tool-before.call-id',
  way: 'in-tool',
  requirement: 'AHP-TB-001',
  level: 'MUST',
  basis: {
    document: 'spec/draft/server/lifecycle-observation.md',
    anchor: 'AHP-TB-001',
    level: 'MUST',
    rule: 'a tool.before event carries the call id in call.id',
  },
  rank: FINDING_RANK.envelope,
  summary: 'the call id is sent as tool.callId, not call.id',
  message: `delivery 1 has tool.callId "c-1" and no call object ${HOSTILE}`,
};

/** A decision finding: a late reply let the call through. */
export const LATE_REPLY: Finding = {
  rule: 'deadline.late-reply',
  requirement: 'AHP-FAIL-002',
  level: 'MUST',
  basis: {
    document: 'spec/draft/base/failure.md',
    anchor: 'AHP-FAIL-002',
    level: 'MUST',
    rule: 'a reply after the deadline is ignored',
  },
  rank: FINDING_RANK.decision,
  summary: 'a reply after the deadline decided the call',
  message: 'the reply at 412 ms (deadline 200 ms) decided continue',
};

/** The cases of the sample report. */
export function sampleCases(): CaseResult[] {
  return [
    result({
      name: 'AHP-TB-001/transport:stdio-persistent/call-id',
      status: 'fail',
      errors: [`- ${CALL_ID.message}`],
      findings: [CALL_ID],
      evidence: { frames: [{ dir: 'in', at: 3, text: '{"tool":{"callId":"c-1"}}' }] },
    }),
    result({
      name: 'AHP-CORE-004/retry-keeps-call-id',
      status: 'blocked',
      note: CALL_ID.message,
      blockedBy: CALL_ID,
    }),
    result({
      name: 'AHP-CORE-004/retry-keeps-event-id',
      status: 'blocked',
      note: CALL_ID.message,
      blockedBy: CALL_ID,
    }),
    result({
      name: 'AHP-FAIL-001/transport:http/policy:fail-closed/hang',
      evidence: { frames: [{ dir: 'out', at: 0, text: '{"jsonrpc":"2.0"}' }] },
    }),
    result({
      name: 'AHP-FAIL-002/transport:stdio-persistent/late-reply',
      requirements: ['AHP-FAIL-002', 'AHPX-DL-001'],
      status: 'fail',
      errors: [`expected deny, got continue\n  at case ${HOSTILE}`],
      findings: [LATE_REPLY],
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
    result({ name: 'AHP-HTTP-001/status-200', status: 'pass' }),
  ];
}

/** The sample report: harness role, a tolerated, a stale and a narrow baseline line, one run error. */
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
      stale: [{ pattern: 'AHP-REG-001', line: 2, passing: ['AHP-REG-001/no-policy'] }],
      narrow: [{ pattern: 'AHP-HTTP-001/**', line: 1, passing: ['AHP-HTTP-001/status-200'] }],
      entries: [
        {
          pattern: 'AHP-HTTP-001/**',
          line: 1,
          reason: 'upstream bug',
          failing: 1,
          passing: ['AHP-HTTP-001/status-200'],
          problems: ['case:AHP-HTTP-001'],
        },
        {
          pattern: 'AHP-REG-001',
          line: 2,
          reason: 'fixed?',
          failing: 0,
          passing: ['AHP-REG-001/no-policy'],
          problems: [],
        },
      ],
    },
    ...over,
  });
}
