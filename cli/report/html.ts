/**
 * The HTML report (`report.html`), for people: the verdict, the distinct problems and the first
 * failure come first, on the first screen; then a jump list, every failure (grouped by problem,
 * evidence collapsed with the transcript one click away), warnings, blocked, known and untested
 * cases, how much of the claim was exercised, the run's details with the target in words, and
 * every requirement with its cases. Self-contained, every value escaped, well-formed XML too.
 */
import { escapeMarkup as x } from './escape.js';
import { badge, caseDetails, pre } from './html-case.js';
import { caseAnchors, readingOrder } from './reading-order.js';
import { problemReach, problemsHeading, type ReportProblem } from './report-problems.js';
import { conformanceExitCode, type Report, type ReportCase, type ReportRequirement } from './report.js';
import {
  caseVerdictFor,
  REPORTED_STATUSES,
  STATUS_WORD,
  untestedReasonFor,
  type ReportedStatus,
} from './status.js';
import { targetFacts, targetInWords } from './target-words.js';
import { profileExtent, profileLines, verdictText } from './verdict.js';
import { counted } from './count.js';

/** Whether SHOULD failures fail the run decides the verdict line. */
export interface HtmlOptions {
  strict: boolean;
}

/** Problems shown before the rest fold into one `<details>`, so the first failure stays on screen. */
export const PROBLEMS_SHOWN = 3;

// No scripts, fonts or images: the file is archived as a CI artifact and opened offline.
// The CSS avoids `<`, `>` and `&` so the document stays well-formed XHTML as well as HTML.
const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5rem auto; max-width: 70rem; padding: 0 1rem; color: #1b1f24; }
h1 { font-size: 1.4rem; margin: 0 0 .4rem; } h2 { font-size: 1.15rem; margin: 1.6rem 0 .5rem; } h3 { font-size: 1rem; margin: 1.2rem 0 .4rem; } h4 { margin: .6rem 0 .2rem; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #d0d7de; vertical-align: top; }
pre { background: #f6f8fa; padding: .6rem; overflow-x: auto; white-space: pre-wrap; word-break: break-word; margin: .3rem 0; }
details { border: 1px solid #d0d7de; border-radius: 4px; margin: .3rem 0; padding: .2rem .6rem; }
details.more { border-style: dashed; } summary { cursor: pointer; } code { font-size: 90%; }
nav ul { list-style: none; padding: 0; margin: .3rem 0; } nav li { display: inline; margin-right: 1rem; }
ol.problems { padding-left: 1.4rem; } ol.problems li { margin: .3rem 0; } .sentence { color: #57606a; margin: .1rem 0; }
.status { display: inline-block; min-width: 6.5rem; font-weight: 600; } .facts { color: #57606a; margin: .2rem 0; }
.pass { color: #1a7f37; } .fail { color: #cf222e; } .warn { color: #bc4c00; } .untested { color: #9a6700; } .blocked { color: #953800; } .skipped { color: #57606a; } .known-failure { color: #8250df; }
.verdict { font-size: 1.05rem; font-weight: 700; margin: .2rem 0; }
`;

/** A problem in two lines: what is wrong and how far it reaches, then the sentence it breaks and a link to its first case. */
function problemItem(p: ReportProblem, anchors: Map<string, string>): string {
  const anchor = anchors.get(p.evidence.case);
  const what = p.failing > 0 ? 'first failure' : 'first blocked case';
  const first = anchor
    ? `<a href="#${x(anchor)}" title="${x(p.evidence.case)}">${what}</a>`
    : `${what}: ${x(p.evidence.case)}`;
  const known = p.knownFailure
    ? ` · <span class="known-failure">known failure (line ${p.knownFailure.line}): ${x(p.knownFailure.reason)}</span>`
    : '';
  return [
    `<li id="${x(p.id)}"><strong>${x(p.requirement)} ${x(p.level)}</strong>: ${x(p.summary)} (${x(problemReach(p))})${known}`,
    `<p class="sentence">Breaks <code>${x(p.sentence.document)}#${x(p.sentence.anchor)}</code>: ${x(p.sentence.text)} · ${first}</p></li>`,
  ].join('');
}

function problemsSection(report: Report, anchors: Map<string, string>): string {
  if (report.problems.length === 0) return '';
  const shown = report.problems.slice(0, PROBLEMS_SHOWN).map((p) => problemItem(p, anchors));
  const rest = report.problems.slice(PROBLEMS_SHOWN).map((p) => problemItem(p, anchors));
  const more =
    rest.length > 0
      ? `<details class="more"><summary>${counted(rest.length, 'more problem', 'more problems')}</summary><ol class="problems" start="${PROBLEMS_SHOWN + 1}">${rest.join('')}</ol></details>`
      : '';
  return `<section id="problems"><h2>${x(problemsHeading(report.problems))}</h2><ol class="problems">${shown.join('')}</ol>${more}</section>`;
}

function casesSection(
  id: string,
  title: string,
  intro: string,
  cases: readonly ReportCase[],
  report: Report,
  anchors: Map<string, string>,
): string {
  if (cases.length === 0) return '';
  const items = cases.map((c) => caseDetails(c, report, anchors.get(c.name)));
  return `<section id="${x(id)}"><h2>${x(title)} (${cases.length})</h2>${intro ? `<p>${x(intro)}</p>` : ''}${items.join('')}</section>`;
}

function runProblemsSection(report: Report): string {
  const parts: string[] = [];
  if (report.stopped)
    parts.push(
      `<h2>The run stopped</h2><p>${x(report.stopped.message)}</p>${report.stopped.stderrTail.length > 0 ? pre(report.stopped.stderrTail.join('\n')) : ''}`,
    );
  if (report.runErrors.length > 0)
    parts.push(
      `<h2>Run errors (${report.runErrors.length})</h2>`,
      ...report.runErrors.map(
        (e) => `<details><summary>${x(e.split('\n', 1)[0] ?? '')}</summary>${pre(e)}</details>`,
      ),
    );
  return parts.length > 0 ? `<section id="run-errors">${parts.join('')}</section>` : '';
}

function baselineSection(report: Report): string {
  const b = report.baseline;
  if (!b) return '';
  const items = [
    ...b.stale.map(
      (s) =>
        `<li>stale: line ${s.line} (<code>${x(s.pattern)}</code>) matches no failing case any more (${s.passing.length} pass); remove the line</li>`,
    ),
    ...b.narrow.map(
      (n) =>
        `<li>narrow: line ${n.line} (<code>${x(n.pattern)}</code>) still tolerates failures but also matches ${counted(n.passing.length, 'passing case')}: ${n.passing.map((p) => `<code>${x(p)}</code>`).join(', ')}; narrow the pattern</li>`,
    ),
  ];
  const list = items.length > 0 ? `<ul>${items.join('')}</ul>` : '<p>Every line is current.</p>';
  return `<section id="baseline"><h2>Known-failures file</h2><p>From <code>${x(b.file)}</code>: ${counted(b.tolerated, 'failing case')} tolerated.</p>${list}</section>`;
}

/** How much ran, and per claimed profile whether it was fully, partly or not exercised. */
function exercisedSection(report: Report): string {
  const coverage = report.claim.coverage ?? [];
  const lines = profileLines(report);
  const extents = coverage.map(profileExtent);
  const row = (profile: string, id: string, what: string, reason: string) =>
    `<tr><td>${x(profile)}</td><td>${x(id)}</td><td>${x(what)}</td><td>${x(reason)}</td></tr>`;
  const unchecked = coverage.flatMap((p) => [
    ...p.untested.map((u) => row(p.profile, u.id, 'untested', u.reason)),
    ...p.excluded.map((u) => row(p.profile, u.id, 'excluded', u.reason)),
  ]);
  return [
    '<section id="exercised"><h2>What was exercised</h2>',
    `<ul>${lines.map((l, i) => `<li class="${extents[i] === 'fully' ? 'pass' : 'untested'}">${x(l)}</li>`).join('')}</ul>`,
    unchecked.length > 0
      ? `<details class="more"><summary>Requirements of the claim not checked (${unchecked.length})</summary><table><tr><th>profile</th><th>requirement</th><th>not checked</th><th>reason</th></tr>${unchecked.join('')}</table></details>`
      : '',
    '</section>',
  ].join('');
}

function untestedSection(cases: readonly ReportCase[]): string {
  if (cases.length === 0) return '';
  const items = cases.map((c) => `<li><code>${x(c.name)}</code>: ${x(c.note ?? 'no reason given')}</li>`);
  return `<section id="untested"><h2>Untested (${cases.length})</h2><details class="more"><summary>The target could not show what these cases need; neither passed nor failed</summary><ul>${items.join('')}</ul></details></section>`;
}

function detailsSection(report: Report): string {
  const s = report.summary;
  const facts: [string, string][] = [
    ...targetFacts(report.target),
    [
      'Claim',
      `${report.claim.role}; bindings ${report.claim.bindings.join(', ') || 'none'}; profiles ${report.claim.profiles.join(', ') || 'none'}`,
    ],
    ['Tool', `${report.tool.name} ${report.tool.version}`],
    ['Protocol revision', report.protocolVersion],
    ['Seed', String(report.seed)],
    ['Started', report.startedAt],
    ['Duration', `${(report.durationMs / 1000).toFixed(1)} s`],
  ];
  const counts = `${s.passed} passed · ${s.failed} failed (MUST) · ${counted(s.warnings, 'warning')} (SHOULD) · ${s.untested} untested · ${s.blocked} blocked · ${counted(s.knownFailures, 'known failure')} · ${s.skipped} skipped`;
  return `<section id="details"><h2>Run details</h2><p>${x(counts)}</p><table>${facts.map(([k, v]) => `<tr><th>${x(k)}</th><td>${x(v)}</td></tr>`).join('')}</table></section>`;
}

function requirementRow(r: ReportRequirement): string {
  const count = (s: ReportedStatus) => r.cases.filter((c) => caseVerdictFor(c, r.id) === s).length;
  return `<tr><td><a href="#req-${x(r.id)}"><code>${x(r.id)}</code></a></td><td>${x(r.level)}</td><td>${badge(r.status)}</td><td>${REPORTED_STATUSES.map(count).join(' / ')}</td><td>${x(r.summary)}</td></tr>`;
}

/** A requirement's cases, one line each: failing ones link to their detail above. */
function requirementSection(
  r: ReportRequirement,
  anchors: Map<string, string>,
  detailed: Set<string>,
): string {
  const items = r.cases.map((c) => {
    const anchor = anchors.get(c.name);
    const name = detailed.has(c.name) && anchor ? `<a href="#${x(anchor)}">${x(c.name)}</a>` : x(c.name);
    const why = untestedReasonFor(c, r.id) ?? (detailed.has(c.name) ? undefined : c.note);
    const note = why ? ` (${x(why)})` : '';
    return `<li>${badge(caseVerdictFor(c, r.id))} <code>${name}</code>${note}</li>`;
  });
  return `<h3 id="req-${x(r.id)}">${x(r.id)} ${badge(r.status)}</h3><p>${x(r.summary)}</p><ul>${items.join('')}</ul>`;
}

/** Renders the report as one self-contained HTML file. */
export function renderHtml(report: Report, options: HtmlOptions): string {
  const ok = conformanceExitCode(report, options.strict) === 0;
  const anchors = caseAnchors(report);
  const order = readingOrder(report);
  const detailedCases = [...order.failures, ...order.warnings, ...order.known, ...order.blocked];
  const detailed = new Set(detailedCases.map((c) => c.name));
  const sections: [string, string, string][] = [
    ['problems', 'Problems', problemsSection(report, anchors)],
    ['run-errors', 'Run errors', runProblemsSection(report)],
    ['failures', 'Failures', casesSection('failures', 'Failures', '', order.failures, report, anchors)],
    [
      'warnings',
      'Warnings',
      casesSection(
        'warnings',
        'Warnings',
        `SHOULD-level cases that failed. ${options.strict ? 'They fail the run under --strict.' : 'They do not fail the run.'}`,
        order.warnings,
        report,
        anchors,
      ),
    ],
    [
      'blocked',
      'Blocked',
      casesSection(
        'blocked',
        'Blocked',
        'Cases an earlier problem kept from being judged: neither passed nor failed.',
        order.blocked,
        report,
        anchors,
      ),
    ],
    [
      'known',
      'Known failures',
      casesSection(
        'known',
        'Known failures',
        'Failures the known-failures file tolerates.',
        order.known,
        report,
        anchors,
      ),
    ],
    ['baseline', 'Known-failures file', baselineSection(report)],
    ['untested', 'Untested', untestedSection(order.untested)],
    ['exercised', 'What was exercised', exercisedSection(report)],
    ['details', 'Run details', detailsSection(report)],
    ['requirements', 'Requirements', ''],
  ];
  const nav = sections
    .filter(([, , html], i, all) => html !== '' || i === all.length - 1)
    .map(([id, title]) => `<li><a href="#${id}">${x(title)}</a></li>`)
    .join('');
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"/><meta name="viewport" content="width=device-width, initial-scale=1"/>',
    `<title>AHP conformance: ${x(report.role)} ${ok ? 'passed' : 'failed'}</title>`,
    `<style>${STYLE}</style></head>`,
    '<body>',
    `<h1>AHP conformance report (${x(report.role)})</h1>`,
    `<p class="verdict ${ok ? 'pass' : 'fail'}">Verdict: ${x(verdictText(report, options.strict))}.</p>`,
    `<p class="facts">${x(targetInWords(report.target))} · seed ${report.seed} · ${(report.durationMs / 1000).toFixed(1)} s</p>`,
    `<nav id="contents"><ul>${nav}</ul></nav>`,
    ...sections.map(([, , html]) => html).filter((h) => h !== ''),
    '<section id="requirements"><h2>Requirements</h2>',
    `<table><tr><th>ID</th><th>level</th><th>status</th><th>${REPORTED_STATUSES.map((s) => STATUS_WORD[s]).join(' / ')}</th><th>requirement</th></tr>`,
    ...report.requirements.map(requirementRow),
    '</table>',
    ...report.requirements.map((r) => requirementSection(r, anchors, detailed)),
    '</section>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
