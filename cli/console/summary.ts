/**
 * The console summary after a run: one line per requirement with its verdict and case counts,
 * the totals, run errors, the baseline's problems, the verdict, and where the reports went.
 * Generic over roles: it reads only the `Report`.
 */
import { conformanceExitCode, type Report, type ReportRequirement } from '../report/report.js';
import { caseVerdict, type ReportedStatus } from '../report/status.js';

const REQUIREMENT_LABEL: Record<ReportedStatus, string> = {
  pass: 'PASS',
  fail: 'FAIL',
  warn: 'WARN',
  untested: 'UNTESTED',
  blocked: 'BLOCKED',
  skipped: 'SKIP',
  'known-failure': 'KNOWN',
};

function requirementLine(r: ReportRequirement): string {
  const n = (s: ReportedStatus) => r.cases.filter((c) => caseVerdict(c) === s).length;
  const counts = [
    `${n('pass')} passed`,
    n('fail') > 0 ? `${n('fail')} failed` : '',
    n('warn') > 0 ? `${n('warn')} warned` : '',
    n('untested') > 0 ? `${n('untested')} untested` : '',
    n('known-failure') > 0 ? `${n('known-failure')} known` : '',
    n('skipped') > 0 ? `${n('skipped')} skipped` : '',
  ].filter((s) => s !== '');
  return `  ${REQUIREMENT_LABEL[r.status].padEnd(8)} ${r.id.padEnd(16)} ${r.level.padEnd(8)} ${counts.join(', ')}`;
}

/** The summary text (no trailing newline). */
export function renderConsoleSummary(
  report: Report,
  options: { strict: boolean; files?: readonly string[] },
): string {
  const s = report.summary;
  const lines = [
    '',
    `Claim: ${report.claim.role}; bindings ${report.claim.bindings.join(', ') || 'none'}; profiles ${report.claim.profiles.join(', ') || 'none'}`,
    'Requirements:',
    ...report.requirements.map(requirementLine),
    '',
    `Cases: ${s.passed} passed, ${s.failed} failed (MUST), ${s.warnings} warning(s) (SHOULD), ${s.untested} untested, ${s.knownFailures} known failure(s), ${s.skipped} skipped; ${(report.durationMs / 1000).toFixed(1)} s`,
  ];
  for (const e of report.runErrors) lines.push(`Run error: ${e}`);
  const b = report.baseline;
  if (b) {
    for (const st of b.stale)
      lines.push(`Stale known failure: ${st.case} passes now; remove line ${st.line} of ${b.file}.`);
    for (const u of b.unmatched)
      lines.push(`Unmatched known failure: line ${u.line} of ${b.file} (${u.pattern}) matches no case.`);
  }
  const ok = conformanceExitCode(report, options.strict) === 0;
  const ids = (s: ReportedStatus) =>
    report.requirements
      .filter((r) => r.status === s)
      .map((r) => r.id)
      .join(', ');
  const why = [
    ids('fail') === '' ? '' : `${ids('fail')} failed`,
    options.strict && ids('warn') !== '' ? `${ids('warn')} warned, and --strict fails warnings` : '',
  ].filter((w) => w !== '');
  lines.push(
    report.stopped
      ? 'Verdict: none: the run stopped before every case was judged (the target stopped being usable).'
      : ok
        ? 'Verdict: conformant (no MUST requirement failed).'
        : `Verdict: not conformant${why.length > 0 ? `: ${why.join('; ')}` : ''}.`,
  );
  for (const file of options.files ?? []) lines.push(`Report: ${file}`);
  return lines.join('\n');
}
