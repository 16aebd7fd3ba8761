/**
 * The console summary after a run: the distinct problems first (each with its requirement, the
 * sentence it breaks, its summary and where it was first seen), then how far each claimed
 * profile was exercised, the requirements that did not simply pass, the totals, the baseline's
 * stale and narrow lines, the verdict, and where the reports went. Generic over roles: it reads
 * only the `Report`.
 */
import { problemReach, problemsHeading } from '../report/report-problems.js';
import type { Report, ReportProblem, ReportRequirement } from '../report/report.js';
import { caseVerdictFor, untestedReasonFor, type ReportedStatus } from '../report/status.js';
import { profileLines, verdictText } from '../report/verdict.js';
import { counted } from '../report/count.js';

const REQUIREMENT_LABEL: Record<ReportedStatus, string> = {
  pass: 'PASS',
  fail: 'FAIL',
  warn: 'WARN',
  untested: 'UNTESTED',
  blocked: 'BLOCKED',
  skipped: 'SKIP',
  'known-failure': 'KNOWN',
};

/** How many passing cases the "narrow the pattern" advice names before it counts the rest. */
const NARROW_SHOWN = 3;

/** How many problems the console details; the rest are named in one line (the reports hold all). */
export const CONSOLE_PROBLEMS_SHOWN = 10;

function requirementLine(r: ReportRequirement): string {
  const n = (s: ReportedStatus) => r.cases.filter((c) => caseVerdictFor(c, r.id) === s).length;
  const counts = [
    `${n('pass')} passed`,
    n('fail') > 0 ? `${n('fail')} failed` : '',
    n('warn') > 0 ? `${n('warn')} warned` : '',
    n('untested') > 0 ? `${n('untested')} untested` : '',
    n('blocked') > 0 ? `${n('blocked')} blocked` : '',
    n('known-failure') > 0 ? `${n('known-failure')} known` : '',
    n('skipped') > 0 ? `${n('skipped')} skipped` : '',
  ].filter((s) => s !== '');
  const line = `  ${REQUIREMENT_LABEL[r.status].padEnd(8)} ${r.id.padEnd(16)} ${r.level.padEnd(8)} ${counts.join(', ')}`;
  const unchecked = r.cases.flatMap((c) => untestedReasonFor(c, r.id) ?? []);
  if (unchecked.length === 0) return line;
  const cases = unchecked.length === 1 ? 'a passing case' : `${unchecked.length} passing cases`;
  return `${line}\n           untested in ${cases}: ${unchecked[0] as string}`;
}

function problemLines(p: ReportProblem): string[] {
  const lines = [
    `  ${p.id.padEnd(4)} ${p.requirement} ${p.level}: ${p.summary}`,
    `       breaks ${p.sentence.document}#${p.sentence.anchor}: ${p.sentence.text}`,
    `       first seen in ${p.evidence.case}: ${p.evidence.message}`,
    `       ${problemReach(p)}`,
  ];
  if (p.knownFailure)
    lines.push(`       known failure (line ${p.knownFailure.line}): ${p.knownFailure.reason}`);
  return lines;
}

function baselineLines(report: Report): string[] {
  const b = report.baseline;
  if (!b) return [];
  const lines = b.stale.map(
    (s) =>
      `Stale known failure: line ${s.line} of ${b.file} (${s.pattern}) matches no failing case any more (${s.passing.length} pass); remove the line.`,
  );
  for (const n of b.narrow) {
    const shown = n.passing.slice(0, NARROW_SHOWN).join(', ');
    const more = n.passing.length > NARROW_SHOWN ? ` and ${n.passing.length - NARROW_SHOWN} more` : '';
    lines.push(
      `Known failure line ${n.line} of ${b.file} (${n.pattern}) also matches passing cases: ${shown}${more}; narrow the pattern.`,
    );
  }
  return lines;
}

/** The summary text (no trailing newline). */
export function renderConsoleSummary(
  report: Report,
  options: { strict: boolean; files?: readonly string[] },
): string {
  const s = report.summary;
  const lines = [''];
  if (report.problems.length > 0) {
    const shown = report.problems.slice(0, CONSOLE_PROBLEMS_SHOWN);
    const rest = report.problems.slice(CONSOLE_PROBLEMS_SHOWN);
    lines.push(`${problemsHeading(report.problems)}:`, ...shown.flatMap(problemLines));
    if (rest.length > 0)
      lines.push(
        `  and ${rest.length} more: ${rest.map((p) => `${p.id} ${p.requirement}`).join(', ')} (the reports list them all)`,
      );
    lines.push('');
  }
  lines.push(
    `Claim: ${report.claim.role}; bindings ${report.claim.bindings.join(', ') || 'none'}; profiles ${report.claim.profiles.join(', ') || 'none'}`,
    ...profileLines(report).map((l) => `  ${l}`),
  );
  // Passing requirements and those nothing ran for (left out by --only/--skip) are counted, not listed.
  const listed = report.requirements.filter((r) => r.status !== 'pass' && r.status !== 'skipped');
  const passing = report.requirements.filter((r) => r.status === 'pass').length;
  const skipped = report.requirements.filter((r) => r.status === 'skipped').length;
  lines.push(
    `Requirements: ${passing} of ${report.requirements.length} pass${skipped > 0 ? `, ${skipped} not run (skipped)` : ''}${listed.length > 0 ? '; the others:' : ''}`,
    ...listed.map(requirementLine),
    '',
    `Cases: ${s.passed} passed, ${s.failed} failed (MUST), ${counted(s.warnings, 'warning')} (SHOULD), ${s.untested} untested, ${s.blocked} blocked, ${counted(s.knownFailures, 'known failure')}, ${s.skipped} skipped; ${(report.durationMs / 1000).toFixed(1)} s`,
  );
  for (const e of report.runErrors) lines.push(`Run error: ${e}`);
  lines.push(...baselineLines(report), `Verdict: ${verdictText(report, options.strict)}.`);
  for (const file of options.files ?? []) lines.push(`Report: ${file}`);
  return lines.join('\n');
}
