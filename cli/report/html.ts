import { escapeMarkup as x } from './escape.js';
import { conformanceExitCode, type Report, type ReportCase, type ReportRequirement } from './report.js';
import { caseVerdict, REPORTED_STATUSES, type ReportedStatus } from './status.js';

/** Whether SHOULD failures fail the run decides the verdict line. */
export interface HtmlOptions {
  strict: boolean;
}

// No scripts, fonts or images: the file is archived as a CI artifact and opened offline.
// The CSS avoids `<`, `>` and `&` so the document stays well-formed XHTML as well as HTML.
const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; padding: 0 1rem; color: #1b1f24; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; } h3 { font-size: 1rem; margin: 1.5rem 0 .5rem; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #d0d7de; vertical-align: top; }
pre { background: #f6f8fa; padding: .6rem; overflow-x: auto; white-space: pre-wrap; word-break: break-word; }
details { border: 1px solid #d0d7de; border-radius: 4px; margin: .3rem 0; padding: .2rem .6rem; }
summary { cursor: pointer; } code { font-size: 90%; }
.status { display: inline-block; min-width: 6.5rem; font-weight: 600; }
.pass { color: #1a7f37; } .fail { color: #cf222e; } .warn { color: #bc4c00; } .untested { color: #9a6700; } .skipped { color: #57606a; } .known-failure { color: #8250df; }
.verdict { font-size: 1.1rem; font-weight: 700; }
`;

function badge(status: ReportedStatus): string {
  return `<span class="status ${x(status)}">${x(status)}</span>`;
}

function pre(text: string): string {
  return `<pre>${x(text)}</pre>`;
}

function caseDetails(c: ReportCase): string {
  const body: string[] = [];
  if (c.requirements.length > 1)
    body.push(`<p>Requirements: ${c.requirements.map((r) => `<code>${x(r)}</code>`).join(', ')}</p>`);
  body.push(
    `<p>Level ${x(c.level)} · transports ${x(c.transports.join(', ') || 'none')} · ${c.durationMs} ms</p>`,
  );
  if (c.note) body.push(`<p>${x(c.note)}</p>`);
  if (c.repeat) {
    body.push(
      `<p>Repeated ${c.repeat.runs} times: ${c.repeat.passed} passed, ${c.repeat.failed} failed (${x(c.repeat.verdict)}).</p>`,
    );
  }
  if (c.errors && c.errors.length > 0) body.push('<h4>Failure</h4>', ...c.errors.map(pre));
  if (c.stderrTail && c.stderrTail.length > 0)
    body.push('<h4>Driver stderr during the case (last lines)</h4>', pre(c.stderrTail.join('\n')));
  if (c.evidence !== undefined)
    body.push('<h4>Evidence (wire transcript)</h4>', pre(JSON.stringify(c.evidence, null, 2)));
  // Failures open by default: they are what a reader came for.
  const verdict = caseVerdict(c);
  const open = verdict === 'fail' || verdict === 'warn' ? ' open="open"' : '';
  return `<details${open}><summary>${badge(verdict)} <code>${x(c.name)}</code></summary>${body.join('')}</details>`;
}

function requirementRow(r: ReportRequirement): string {
  const count = (s: ReportedStatus) => r.cases.filter((c) => caseVerdict(c) === s).length;
  const counts = REPORTED_STATUSES.map(count).join(' / ');
  return `<tr><td><a href="#${x(r.id)}"><code>${x(r.id)}</code></a></td><td>${x(r.level)}</td><td>${badge(r.status)}</td><td>${counts}</td><td>${x(r.summary)}</td></tr>`;
}

function requirementSection(r: ReportRequirement): string {
  return `<h3 id="${x(r.id)}">${x(r.id)} ${badge(r.status)}</h3><p>${x(r.summary)}</p>${r.cases.map(caseDetails).join('')}`;
}

function baselineSection(report: Report): string {
  const b = report.baseline;
  if (!b) return '';
  const items = [
    ...b.stale.map(
      (s) =>
        `<li>stale: <code>${x(s.case)}</code> passes now; remove line ${s.line} (<code>${x(s.pattern)}</code>)</li>`,
    ),
    ...b.unmatched.map(
      (u) => `<li>unmatched: line ${u.line} (<code>${x(u.pattern)}</code>) matches no case</li>`,
    ),
  ];
  const list = items.length > 0 ? `<ul>${items.join('')}</ul>` : '<p>Every entry is current.</p>';
  return `<h2>Known failures</h2><p>From <code>${x(b.file)}</code>: ${b.tolerated} tolerated.</p>${list}`;
}

/** Per claimed profile: the requirements checked, and those untested or excluded with their reason. */
function claimCoverageSection(report: Report): string {
  const coverage = report.claim.coverage ?? [];
  if (coverage.length === 0) return '';
  const row = (profile: string, id: string, what: string, reason: string) =>
    `<tr><td>${x(profile)}</td><td>${x(id)}</td><td>${x(what)}</td><td>${x(reason)}</td></tr>`;
  return [
    '<h2>Claim coverage</h2>',
    '<table><tr><th>profile</th><th>checked</th><th>untested</th><th>excluded</th></tr>',
    ...coverage.map(
      (p) =>
        `<tr><td>${x(p.profile)}</td><td>${p.checked.length}</td><td>${p.untested.length}</td><td>${p.excluded.length}</td></tr>`,
    ),
    '</table>',
    '<table><tr><th>profile</th><th>requirement</th><th>not checked</th><th>reason</th></tr>',
    ...coverage.flatMap((p) => [
      ...p.untested.map((u) => row(p.profile, u.id, 'untested', u.reason)),
      ...p.excluded.map((u) => row(p.profile, u.id, 'excluded', u.reason)),
    ]),
    '</table>',
  ].join('\n');
}

/**
 * Renders the report as one self-contained HTML file: the verdict and summary, a table per
 * requirement, then every case as an expandable `<details>` with its failure and transcript.
 * Every value from the run is escaped; the markup is also well-formed XML.
 */
export function renderHtml(report: Report, options: HtmlOptions): string {
  const ok = conformanceExitCode(report, options.strict) === 0;
  const s = report.summary;
  const facts: [string, string][] = [
    ['Tool', `${report.tool.name} ${report.tool.version}`],
    ['Role', report.role],
    ['Protocol revision', report.protocolVersion],
    ['Target', JSON.stringify(report.target)],
    [
      'Claim',
      `bindings ${report.claim.bindings.join(', ') || 'none'}; profiles ${report.claim.profiles.join(', ') || 'none'}`,
    ],
    ['Seed', String(report.seed)],
    ['Started', report.startedAt],
    ['Duration', `${(report.durationMs / 1000).toFixed(1)} s`],
  ];
  const runErrors =
    (report.runErrors.length === 0 ? '' : `<h2>Run errors</h2>${report.runErrors.map(pre).join('')}`) +
    (report.stopped
      ? `<h2>The run stopped</h2><p>${x(report.stopped.message)}</p>${pre(report.stopped.stderrTail.join('\n'))}`
      : '');
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"/><meta name="viewport" content="width=device-width, initial-scale=1"/>',
    `<title>AHP conformance: ${x(report.role)} ${ok ? 'passed' : 'failed'}</title>`,
    `<style>${STYLE}</style></head>`,
    '<body>',
    `<h1>AHP conformance report (${x(report.role)})</h1>`,
    `<p class="verdict ${ok ? 'pass' : 'fail'}">${ok ? 'Conformant: no MUST failed.' : 'Not conformant: see the failures below.'}</p>`,
    `<table>${facts.map(([k, v]) => `<tr><th>${x(k)}</th><td>${x(v)}</td></tr>`).join('')}</table>`,
    '<h2>Summary</h2>',
    '<table><tr><th>passed</th><th>failed (MUST)</th><th>warnings (SHOULD)</th><th>untested</th><th>known failures</th><th>skipped</th></tr>',
    `<tr><td>${s.passed}</td><td>${s.failed}</td><td>${s.warnings}</td><td>${s.untested}</td><td>${s.knownFailures}</td><td>${s.skipped}</td></tr></table>`,
    claimCoverageSection(report),
    runErrors,
    baselineSection(report),
    '<h2>Requirements</h2>',
    `<table><tr><th>ID</th><th>level</th><th>status</th><th>${REPORTED_STATUSES.join(' / ')}</th><th>requirement</th></tr>`,
    ...report.requirements.map(requirementRow),
    '</table>',
    '<h2>Cases</h2>',
    ...report.requirements.map(requirementSection),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
