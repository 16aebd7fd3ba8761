import { isMandatory } from '../runner/case-result.js';
import { escapeMarkup as x, uniqueCases } from './escape.js';
import { failingProblems, problemReach } from './report-problems.js';
import type { Report, ReportCase } from './report.js';

/** How a case is rendered depends on whether SHOULD failures fail the run. */
export interface JunitOptions {
  strict: boolean;
}

interface Entry {
  classname: string;
  name: string;
  seconds: number;
  /** failure: fails the run; error: the run itself broke; skipped: neither pass nor fail. */
  outcome?: { kind: 'failure' | 'error' | 'skipped'; message: string; type?: string; body?: string };
  systemOut?: string;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** JUnit's schema wants a local date-time without zone or fraction; ours is UTC. */
function junitTimestamp(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().slice(0, 19);
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? text;
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function caseBody(c: ReportCase, report: Report): string {
  const problem = report.problems.find((p) => p.id === c.problem);
  const parts = problem
    ? [`problem ${problem.id} (${problem.requirement} ${problem.level}): ${problem.summary}`]
    : [];
  parts.push(...(c.errors ?? []));
  if (c.note) parts.push(`note: ${c.note}`);
  if (c.evidence !== undefined)
    parts.push(`evidence (wire transcript):\n${JSON.stringify(c.evidence, null, 2)}`);
  return parts.join('\n\n');
}

/** What keeps a blocked case from a verdict: its problem's id, requirement and summary. */
function blockedCause(c: ReportCase, report: Report): string {
  const problem = report.problems.find((p) => p.id === c.blockedBy);
  if (!problem) return `blocked: ${c.note ?? 'an earlier problem'}`;
  const known = problem.knownFailure ? `; a known failure (line ${problem.knownFailure.line})` : '';
  return `blocked by ${problem.id} (${problem.requirement} ${problem.level}): ${problem.summary}${known}`;
}

function entryFor(c: ReportCase, report: Report, options: JunitOptions): Entry {
  const base = { classname: c.requirements[0] ?? 'ahp', name: c.name, seconds: c.durationMs };
  switch (c.status) {
    case 'pass': {
      const unchecked = Object.entries(c.untestedRequirements ?? {}).map(
        ([id, why]) => `untested for ${id}: ${why}`,
      );
      const parts = [
        ...unchecked,
        ...(c.evidence === undefined ? [] : [JSON.stringify(c.evidence, null, 2)]),
      ];
      return parts.length === 0 ? base : { ...base, systemOut: parts.join('\n\n') };
    }
    case 'fail': {
      const counts = isMandatory(c.level) || options.strict;
      const message = firstLine(c.errors?.[0] ?? c.note ?? `${c.level} not met`);
      return counts
        ? { ...base, outcome: { kind: 'failure', type: c.level, message, body: caseBody(c, report) } }
        : {
            ...base,
            outcome: {
              kind: 'skipped',
              message: `warning: ${c.level} not met (fails only with --strict): ${message}`,
            },
            systemOut: caseBody(c, report),
          };
    }
    case 'known-failure':
      return {
        ...base,
        outcome: { kind: 'skipped', message: c.note ?? 'known failure' },
        systemOut: caseBody(c, report),
      };
    case 'blocked':
      return {
        ...base,
        outcome: { kind: 'skipped', message: blockedCause(c, report) },
        ...(c.note !== undefined ? { systemOut: c.note } : {}),
      };
    case 'untested':
      return {
        ...base,
        outcome: { kind: 'skipped', message: `untested: ${c.note ?? 'the target cannot show this'}` },
      };
    case 'skipped':
      return { ...base, outcome: { kind: 'skipped', message: c.note ?? 'skipped' } };
  }
}

function renderEntry(e: Entry): string {
  const open = `    <testcase classname="${x(e.classname)}" name="${x(e.name)}" time="${seconds(e.seconds)}"`;
  const inner: string[] = [];
  if (e.outcome) {
    const type = e.outcome.type !== undefined ? ` type="${x(e.outcome.type)}"` : '';
    const tag = `<${e.outcome.kind} message="${x(e.outcome.message)}"${type}`;
    inner.push(e.outcome.body ? `      ${tag}>${x(e.outcome.body)}</${e.outcome.kind}>` : `      ${tag}/>`);
  }
  if (e.systemOut) inner.push(`      <system-out>${x(e.systemOut)}</system-out>`);
  return inner.length === 0 ? `${open}/>` : [`${open}>`, ...inner, '    </testcase>'].join('\n');
}

/**
 * Renders the report as JUnit XML: one `<testcase>` per case (classname = its first requirement
 * ID, name = the case name, which starts with it), in the shape Jenkins, GitLab and the GitHub
 * JUnit actions read. Known failures, untested cases and non-strict SHOULD failures are
 * `<skipped>` so CI goes red exactly when the exit code does (a blocked case names the problem
 * that blocks it); a stale baseline line and run errors appear as failing testcases of their own.
 */
export function renderJunit(report: Report, options: JunitOptions): string {
  const entries = uniqueCases(report.requirements).map((c) => entryFor(c, report, options));
  for (const s of report.baseline?.stale ?? []) {
    entries.push({
      classname: 'known-failures',
      name: `known-failures line ${s.line}: ${s.pattern}`,
      seconds: 0,
      outcome: {
        kind: 'failure',
        type: 'stale-known-failure',
        // The console's sentence (cli/console/summary.ts), so both name the line the same way.
        message: `stale known failure: line ${s.line} of ${report.baseline?.file ?? 'the baseline'} (${s.pattern}) matches no failing case any more (${s.passing.length} pass); remove the line`,
        body: s.passing.join('\n'),
      },
    });
  }
  // A problem that fails the run through blocked cases alone still shows as a failure.
  const failed = new Set(entries.filter((e) => e.outcome?.kind === 'failure').map((e) => e.name));
  for (const p of failingProblems(report.problems, options.strict)) {
    if (p.cases.some((name) => failed.has(name))) continue;
    entries.push({
      classname: 'problems',
      name: `problem ${p.id}: ${p.requirement}`,
      seconds: 0,
      outcome: {
        kind: 'failure',
        type: p.level,
        message: `${p.requirement} ${p.level}: ${p.summary} (${problemReach(p)})`,
        body: `${p.sentence.document}#${p.sentence.anchor}: ${p.sentence.text}\n\nfirst seen in ${p.evidence.case}: ${p.evidence.message}`,
      },
    });
  }
  report.runErrors.forEach((error, i) => {
    entries.push({
      classname: 'run',
      name: `run error ${i + 1}`,
      seconds: 0,
      outcome: { kind: 'error', message: firstLine(error), body: error },
    });
  });
  const count = (kind: string) => entries.filter((e) => e.outcome?.kind === kind).length;
  const totals = `tests="${entries.length}" failures="${count('failure')}" errors="${count('error')}" skipped="${count('skipped')}" time="${seconds(report.durationMs)}"`;
  const properties: [string, string][] = [
    ['tool.version', report.tool.version],
    ['protocolVersion', report.protocolVersion],
    ['role', report.role],
    ['seed', String(report.seed)],
    ['target', JSON.stringify(report.target)],
    ['claim', JSON.stringify(report.claim)],
  ];
  const suiteName = `ahp-conformance ${report.role}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="ahp-conformance" ${totals}>`,
    `  <testsuite name="${x(suiteName)}" ${totals} timestamp="${x(junitTimestamp(report.startedAt))}">`,
    '    <properties>',
    ...properties.map(([k, v]) => `      <property name="${x(k)}" value="${x(v)}"/>`),
    '    </properties>',
    ...entries.map(renderEntry),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
