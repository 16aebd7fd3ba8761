/**
 * The Markdown report (`report.md`), for people and for a CI job summary: the verdict, the
 * distinct problems, then each failure (grouped by problem, evidence folded away), warnings,
 * known, blocked and untested cases, what was exercised, and the requirements. The whole file is
 * bounded (`MAX_MARKDOWN_BYTES`): what does not fit is cut with a note naming the full report.
 * Works for either role: nothing here knows what a case checks.
 */
import type { JsonValue } from '../../protocol/json.js';
import { cut, evidenceBlocks } from './evidence-text.js';
import { readingOrder } from './reading-order.js';
import { problemReach, problemsHeading, type ReportProblem } from './report-problems.js';
import type { Report, ReportCase } from './report.js';
import { caseVerdict, statusCounts, STATUS_WORD } from './status.js';
import { targetFacts } from './target-words.js';
import { profileLines, verdictText } from './verdict.js';
import { counted } from './count.js';

export { MAX_EVIDENCE_CHARS } from './evidence-text.js';

/**
 * The cap on the whole Markdown report, in bytes of UTF-8. A GitHub job summary takes at most
 * 1 MiB per step; half of that leaves room for what other steps add and is still far more than
 * anyone reads in a summary.
 */
export const MAX_MARKDOWN_BYTES = 512 * 1024;

export interface MarkdownOptions {
  /** Whether SHOULD failures fail the run decides the verdict line. */
  strict: boolean;
  /** Where the full report is (report.html or report.json), for the note when the file is cut. */
  fullReport?: string;
  /** The cap, in bytes (tests lower it). */
  maxBytes?: number;
}

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

/** Evidence as Markdown: frame lists as transcripts, everything else as JSON. */
export function evidenceMarkdown(evidence: JsonValue): string {
  return evidenceBlocks(evidence)
    .map((b) => (b.title === 'Evidence' ? '' : `${b.title}:\n\n`) + fenced(b.text, b.language))
    .join('\n\n');
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function caseSection(c: ReportCase, report: Report): string {
  const lines = [
    `### ${inline(c.name)}`,
    '',
    `${STATUS_WORD[caseVerdict(c)]} · ${c.level} · requirements ${inline(c.requirements.join(', '))} · transports ${inline(c.transports.join(', ') || 'none')} · ${c.durationMs} ms`,
  ];
  const problem = report.problems.find((p) => p.id === (c.problem ?? c.blockedBy));
  if (problem)
    lines.push('', `${c.blockedBy ? 'Blocked by' : 'Problem'} ${problem.id}: ${inline(problem.summary)}`);
  if (c.note) lines.push('', inline(c.note));
  if (c.repeat)
    lines.push(
      '',
      `Repeated ${counted(c.repeat.runs, 'time')}: ${c.repeat.passed} passed, ${c.repeat.failed} failed.`,
    );
  if (c.errors && c.errors.length > 0) lines.push('', fenced(cut(c.errors.join('\n\n')), 'text'));
  const folded: string[] = [];
  if (c.evidence !== undefined) folded.push(evidenceMarkdown(c.evidence));
  if (c.stderrTail && c.stderrTail.length > 0)
    folded.push('Driver stderr during the case (last lines):', fenced(c.stderrTail.join('\n'), 'text'));
  if (folded.length > 0)
    lines.push(
      '',
      '<details><summary>Evidence (wire transcript)</summary>',
      '',
      ...folded.flatMap((f) => [f, '']),
      '</details>',
    );
  return lines.join('\n');
}

function problemItem(p: ReportProblem, index: number): string {
  const known = p.knownFailure
    ? ` Known failure (line ${p.knownFailure.line}): ${inline(p.knownFailure.reason)}.`
    : '';
  return [
    `${index + 1}. **${p.requirement} ${p.level}** (${p.id}): ${inline(p.summary)}`,
    `   - breaks \`${p.sentence.document}#${p.sentence.anchor}\`: ${inline(p.sentence.text)}`,
    `   - first seen in [${inline(p.evidence.case)}](#${headingSlug(p.evidence.case)}): ${inline(p.evidence.message)}`,
    `   - ${problemReach(p)}.${known}`,
  ].join('\n');
}

/** The opening: verdict, how much ran, problems, run errors, the baseline. Never cut. */
function opening(report: Report, options: MarkdownOptions): string[] {
  const out = [
    `# AHP conformance report: ${report.role}`,
    '',
    `**Verdict: ${inline(verdictText(report, options.strict))}.**`,
    '',
  ];
  out.push(...profileLines(report).map((l) => `- ${inline(l)}`));
  if (report.problems.length > 0)
    out.push('', `## ${problemsHeading(report.problems)}`, '', ...report.problems.map(problemItem));
  if (report.stopped) {
    out.push('', '## The run stopped', '', inline(report.stopped.message));
    if (report.stopped.stderrTail.length > 0)
      out.push('', fenced(report.stopped.stderrTail.join('\n'), 'text'));
  }
  if (report.runErrors.length > 0)
    out.push('', '## Run errors', '', ...report.runErrors.map((e) => fenced(cut(e, 4000), 'text')));
  const b = report.baseline;
  if (b) {
    out.push(
      '',
      '## Known-failures file',
      '',
      `From ${inline(b.file)}: ${counted(b.tolerated, 'failing case')} tolerated.`,
    );
    for (const s of b.stale)
      out.push(
        `- stale: line ${s.line} (${inline(s.pattern)}) matches no failing case any more (${s.passing.length} pass); remove the line`,
      );
    for (const n of b.narrow)
      out.push(
        `- narrow: line ${n.line} (${inline(n.pattern)}) also matches ${counted(n.passing.length, 'passing case')}: ${inline(n.passing.slice(0, 10).join(', '))}${n.passing.length > 10 ? ', ...' : ''}; narrow the pattern`,
      );
  }
  return out;
}

/** The parts after the opening, most wanted first; each is kept or cut whole. */
function body(report: Report, options: MarkdownOptions): { heading: string; parts: string[] }[] {
  const order = readingOrder(report);
  const s = report.summary;
  const rule = options.strict ? 'They fail the run under --strict.' : 'They do not fail the run.';
  const facts = [
    ...targetFacts(report.target),
    ['Tool', `${report.tool.name} ${report.tool.version}`],
    ['Protocol revision', report.protocolVersion],
    ['Seed', String(report.seed)],
    ['Started', report.startedAt],
    ['Duration', `${(report.durationMs / 1000).toFixed(1)} s`],
  ];
  const coverage = (report.claim.coverage ?? []).flatMap((p) => [
    ...p.untested.map((u) => `- ${inline(p.profile)}: ${inline(u.id)} untested: ${inline(u.reason)}`),
    ...p.excluded.map((u) => `- ${inline(p.profile)}: ${inline(u.id)} excluded: ${inline(u.reason)}`),
  ]);
  return [
    { heading: '## Failures', parts: order.failures.map((c) => caseSection(c, report)) },
    {
      heading: `## Warnings\n\nSHOULD-level cases that failed. ${rule}`,
      parts: order.warnings.map((c) => caseSection(c, report)),
    },
    { heading: '## Known failures', parts: order.known.map((c) => caseSection(c, report)) },
    {
      heading: '## Blocked\n\nCases an earlier problem kept from being judged: neither passed nor failed.',
      parts: order.blocked.map(
        (c) => `- ${inline(c.name)}: blocked by ${c.blockedBy ?? 'an earlier problem'}`,
      ),
    },
    {
      heading:
        '## Untested\n\nThe target could not show what these cases need; they are neither passed nor failed.',
      parts: order.untested.map((c) => `- ${inline(c.name)}: ${inline(c.note ?? 'no reason given')}`),
    },
    {
      heading:
        '## Claim coverage\n\nRequirements of the claim no case reached a verdict on, never counted as passed:',
      parts: coverage,
    },
    {
      heading: '## Run details',
      parts: [
        `**${s.passed}** passed · **${s.failed}** failed (MUST) · **${s.warnings}** warnings (SHOULD) · **${s.untested}** untested · **${s.blocked}** blocked · **${s.knownFailures}** known failures · **${s.skipped}** skipped`,
        [
          '| | |',
          '| --- | --- |',
          ...facts.map(([k, v]) => `| ${inline(k as string)} | ${inline(v as string)} |`),
          `| Claim | ${inline(`bindings ${report.claim.bindings.join(', ') || 'none'}; profiles ${report.claim.profiles.join(', ') || 'none'}`)} |`,
        ].join('\n'),
      ],
    },
    {
      heading:
        '## Requirements\n\n| Requirement | Level | Status | Cases | Summary |\n| --- | --- | --- | --- | --- |',
      parts: report.requirements.map(
        (r) =>
          `| ${inline(r.id)} | ${r.level} | ${STATUS_WORD[r.status]} | ${statusCounts(r.cases, STATUS_WORD, r.id)} | ${inline(r.summary)} |`,
      ),
    },
  ];
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** Renders the report as Markdown, at most `maxBytes` long. */
export function renderMarkdown(report: Report, options: MarkdownOptions): string {
  const max = options.maxBytes ?? MAX_MARKDOWN_BYTES;
  // Room for the note that says what was cut.
  const reserve = 600 + bytes(options.fullReport ?? '');
  let text = opening(report, options).join('\n');
  let left = 0;
  for (const section of body(report, options)) {
    if (section.parts.length === 0) continue;
    const head = `\n\n${section.heading}\n`;
    if (left > 0 || bytes(text) + bytes(head) + reserve > max) {
      left += section.parts.length;
      continue;
    }
    text += head;
    section.parts.forEach((part, i) => {
      const piece = `${i > 0 && part.startsWith('###') ? '\n' : ''}\n${part}`;
      if (left === 0 && bytes(text) + bytes(piece) + reserve <= max) text += piece;
      else left++;
    });
  }
  if (left > 0) {
    const where = options.fullReport
      ? `the full report is ${inline(options.fullReport)}`
      : 'write the full report with --reporter html or --reporter json';
    text += `\n\n---\n\n**This report is cut at ${Math.round(max / 1024)} KiB to fit a CI job summary: ${left} more entr${left === 1 ? 'y is' : 'ies are'} left out; ${where}.**`;
  }
  // A cap below the opening itself still holds: the opening is cut too, on a character boundary.
  return `${
    bytes(text) > max
      ? Buffer.from(text)
          .subarray(0, max - 4)
          .toString('utf8')
          .replace(/\uFFFD$/, '')
      : text
  }\n`;
}
