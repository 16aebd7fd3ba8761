/**
 * The Markdown report (`report.md`): the same content as the JSON report, for people, sized to
 * fit a CI job summary. Failures come first with their errors and evidence; passing cases are
 * counted, not repeated. Works for either role: nothing here knows what a case checks.
 */
import type { JsonValue } from '../../protocol/json.js';
import { uniqueCases } from './escape.js';
import { conformanceExitCode, type Report, type ReportCase, type ReportRequirement } from './report.js';
import { caseVerdict, statusCounts, STATUS_WORD } from './status.js';

/** Whether SHOULD failures fail the run decides the verdict line. */
export interface MarkdownOptions {
  strict: boolean;
}

/** Evidence longer than this is cut in the Markdown (report.json keeps all of it). */
export const MAX_EVIDENCE_CHARS = 20_000;

/** Text safe inside a table cell or a list item: no HTML, no pipes, no line breaks. */
export function inline(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/[*_`[\]#]/g, (c) => `\\${c}`)
    .replace(/\r?\n/g, ' ');
}

/** A fenced block whose fence is longer than any backtick run inside, so content cannot end it. */
export function fenced(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

function cut(text: string): string {
  if (text.length <= MAX_EVIDENCE_CHARS) return text;
  return `${text.slice(0, MAX_EVIDENCE_CHARS)}\n... (${text.length - MAX_EVIDENCE_CHARS} more characters in report.json)`;
}

interface FrameLike {
  dir: string;
  text: string;
  step?: number;
  atMs?: number;
  at?: number;
  encoding?: string;
}

function isFrameList(value: JsonValue | undefined): value is JsonValue[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (f) =>
        f !== null &&
        typeof f === 'object' &&
        !Array.isArray(f) &&
        typeof f.dir === 'string' &&
        typeof f.text === 'string',
    )
  );
}

const ARROW: Record<string, string> = { out: '->', in: '<-', note: '##' };

/** A transcript as lines: step, time, direction, then the frame exactly as exchanged. */
function transcript(frames: JsonValue[]): string {
  return frames
    .map((raw) => {
      const f = raw as unknown as FrameLike;
      const at = f.atMs ?? f.at;
      const where = [f.step === undefined ? '' : `#${f.step}`, at === undefined ? '' : `+${at}ms`]
        .filter((s) => s !== '')
        .join(' ');
      const enc = f.encoding === undefined ? '' : ` (${f.encoding})`;
      return `${where.padEnd(12)} ${ARROW[f.dir] ?? f.dir} ${f.text}${enc}`;
    })
    .join('\n');
}

/** Evidence as Markdown: frame lists as transcripts, everything else as JSON. */
export function evidenceMarkdown(evidence: JsonValue): string {
  if (evidence === null || typeof evidence !== 'object' || Array.isArray(evidence)) {
    return fenced(cut(JSON.stringify(evidence, null, 2)), 'json');
  }
  const parts: string[] = [];
  const rest: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(evidence)) {
    if (isFrameList(value)) parts.push(`Frames (\`${key}\`):`, fenced(cut(transcript(value)), 'text'));
    else if (value !== undefined) rest[key] = value;
  }
  if (Object.keys(rest).length > 0) parts.unshift(fenced(cut(JSON.stringify(rest, null, 2)), 'json'));
  return parts.join('\n\n');
}

function verdict(report: Report, options: MarkdownOptions): string {
  if (conformanceExitCode(report, options.strict) === 0) {
    const warn = report.summary.warnings > 0 ? ` (${report.summary.warnings} SHOULD warning(s))` : '';
    return `**Verdict: conformant.** No MUST requirement failed${warn}.`;
  }
  const why: string[] = [];
  if (report.summary.failed > 0) why.push(`${report.summary.failed} MUST case(s) failed`);
  if (options.strict && report.summary.warnings > 0)
    why.push(`${report.summary.warnings} SHOULD case(s) failed under --strict`);
  if (report.runErrors.length > 0) why.push(`${report.runErrors.length} run error(s)`);
  if (report.baseline && (report.baseline.stale.length > 0 || report.baseline.unmatched.length > 0))
    why.push('the known-failures baseline is out of date');
  return `**Verdict: not conformant.** ${why.join('; ')}.`;
}

function countsOf(r: ReportRequirement): string {
  return statusCounts(r.cases);
}

function caseSection(c: ReportCase): string {
  const lines = [
    `### ${inline(c.name)}`,
    '',
    `${STATUS_WORD[caseVerdict(c)]} · ${c.level} · requirements ${inline(c.requirements.join(', '))} · transports ${inline(c.transports.join(', ') || 'none')} · ${c.durationMs} ms`,
  ];
  if (c.note) lines.push('', inline(c.note));
  if (c.repeat)
    lines.push('', `Repeated ${c.repeat.runs} times: ${c.repeat.passed} passed, ${c.repeat.failed} failed.`);
  if (c.errors && c.errors.length > 0) lines.push('', fenced(cut(c.errors.join('\n\n')), 'text'));
  if (c.stderrTail && c.stderrTail.length > 0)
    lines.push(
      '',
      'Driver stderr during the case (last lines):',
      '',
      fenced(c.stderrTail.join('\n'), 'text'),
    );
  if (c.evidence !== undefined)
    lines.push(
      '',
      '<details><summary>Evidence</summary>',
      '',
      evidenceMarkdown(c.evidence),
      '',
      '</details>',
    );
  return lines.join('\n');
}

/** Per claimed profile: how many of its requirements were checked, and what was not, with why. */
function claimCoverageSection(report: Report): string[] {
  const coverage = report.claim.coverage ?? [];
  if (coverage.length === 0) return [];
  const out = [
    '',
    '## Claim coverage',
    '',
    'What the claim rests on, per profile: requirements checked by a case that reached a verdict, and those left untested or excluded (no case checks them), never counted as passed.',
    '',
    '| Profile | Checked | Untested | Excluded |',
    '| --- | --- | --- | --- |',
    ...coverage.map(
      (p) => `| ${inline(p.profile)} | ${p.checked.length} | ${p.untested.length} | ${p.excluded.length} |`,
    ),
  ];
  const unchecked = coverage.flatMap((p) => [
    ...p.untested.map((u) => `- ${inline(p.profile)}: ${inline(u.id)} untested: ${inline(u.reason)}`),
    ...p.excluded.map((u) => `- ${inline(p.profile)}: ${inline(u.id)} excluded: ${inline(u.reason)}`),
  ]);
  if (unchecked.length > 0) out.push('', ...unchecked);
  return out;
}

/** Renders the report as Markdown. */
export function renderMarkdown(report: Report, options: MarkdownOptions): string {
  const s = report.summary;
  const cases = uniqueCases(report.requirements);
  const failing = cases.filter((c) => ['fail', 'known-failure'].includes(caseVerdict(c)));
  const warned = cases.filter((c) => caseVerdict(c) === 'warn');
  const untested = cases.filter((c) => c.status === 'untested');
  const out: string[] = [
    `# AHP conformance report: ${report.role}`,
    '',
    verdict(report, options),
    '',
    '| | |',
    '| --- | --- |',
    `| Tool | ${inline(`${report.tool.name} ${report.tool.version}`)} |`,
    `| Role | ${inline(report.claim.role)} |`,
    `| Bindings | ${inline(report.claim.bindings.join(', ') || 'none')} |`,
    `| Profiles | ${inline(report.claim.profiles.join(', ') || 'none')} |`,
    `| Protocol revision | ${inline(report.protocolVersion)} |`,
    `| Target | ${inline(JSON.stringify(report.target))} |`,
    `| Seed | ${report.seed} |`,
    `| Started | ${inline(report.startedAt)} |`,
    `| Duration | ${(report.durationMs / 1000).toFixed(1)} s |`,
    '',
    `**${s.passed}** passed · **${s.failed}** failed (MUST) · **${s.warnings}** warnings (SHOULD) · **${s.untested}** untested · **${s.knownFailures}** known failures · **${s.skipped}** skipped`,
    '',
    '## Requirements',
    '',
    '| Requirement | Level | Status | Cases | Summary |',
    '| --- | --- | --- | --- | --- |',
    ...report.requirements.map(
      (r) =>
        `| ${inline(r.id)} | ${r.level} | ${STATUS_WORD[r.status]} | ${countsOf(r)} | ${inline(r.summary)} |`,
    ),
  ];
  out.push(...claimCoverageSection(report));
  if (report.runErrors.length > 0) {
    out.push('', '## Run errors', '', ...report.runErrors.map((e) => fenced(cut(e), 'text')));
  }
  if (report.stopped) {
    out.push('', '## The run stopped', '', inline(report.stopped.message));
    if (report.stopped.stderrTail.length > 0)
      out.push('', fenced(report.stopped.stderrTail.join('\n'), 'text'));
  }
  const b = report.baseline;
  if (b) {
    out.push('', '## Known failures', '', `From ${inline(b.file)}: ${b.tolerated} tolerated.`);
    for (const st of b.stale)
      out.push(`- stale: ${inline(st.case)} passes now; remove line ${st.line} (${inline(st.pattern)})`);
    for (const u of b.unmatched)
      out.push(`- unmatched: line ${u.line} (${inline(u.pattern)}) matches no case`);
  }
  if (failing.length > 0) out.push('', '## Failures', '', failing.map(caseSection).join('\n\n'));
  if (warned.length > 0) {
    const rule = options.strict ? 'They fail the run under --strict.' : 'They do not fail the run.';
    out.push(
      '',
      '## Warnings',
      '',
      `SHOULD-level cases that failed. ${rule}`,
      '',
      warned.map(caseSection).join('\n\n'),
    );
  }
  if (untested.length > 0) {
    out.push(
      '',
      '## Untested',
      '',
      'The target could not show what these cases need; they are neither passed nor failed.',
      '',
      ...untested.map((c) => `- ${inline(c.name)}: ${inline(c.note ?? 'no reason given')}`),
    );
  }
  out.push('');
  return out.join('\n');
}
