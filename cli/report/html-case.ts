/**
 * One case in the HTML report: a `<details>` whose summary line says its status and name, whose
 * body says what failed, and whose evidence (the wire transcript) and stderr sit in closed
 * `<details>` of their own, one click away.
 */
import { escapeMarkup as x } from './escape.js';
import { evidenceBlocks } from './evidence-text.js';
import type { Report, ReportCase } from './report.js';
import { caseVerdict, STATUS_WORD, type ReportedStatus } from './status.js';
import { counted } from './count.js';

export function badge(status: ReportedStatus): string {
  return `<span class="status ${x(status)}">${x(STATUS_WORD[status])}</span>`;
}

export function pre(text: string): string {
  return `<pre>${x(text)}</pre>`;
}

function collapsed(title: string, body: string): string {
  return `<details class="more"><summary>${x(title)}</summary>${body}</details>`;
}

/** Where a case stands among the problems: "p1 (AHP-TB-001)", linked. */
function problemLink(id: string | undefined, report: Report): string {
  const p = report.problems.find((q) => q.id === id);
  return p ? `<a href="#${x(p.id)}">${x(p.id)}</a> (${x(p.requirement)}: ${x(p.summary)})` : '';
}

/** A case as a `<details>`; failures open, so their message shows without a click. */
export function caseDetails(c: ReportCase, report: Report, anchor: string | undefined): string {
  const verdict = caseVerdict(c);
  const body: string[] = [];
  const facts = [
    `${x(c.level)}`,
    `requirements ${c.requirements.map((r) => `<code>${x(r)}</code>`).join(', ') || 'none'}`,
    `transports ${x(c.transports.join(', ') || 'none')}`,
    `${c.durationMs} ms`,
  ];
  const problem = c.problem ?? c.blockedBy;
  if (problem !== undefined)
    facts.push(`${c.blockedBy ? 'blocked by' : 'problem'} ${problemLink(problem, report)}`);
  body.push(`<p class="facts">${facts.join(' · ')}</p>`);
  if (c.note) body.push(`<p>${x(c.note)}</p>`);
  if (c.repeat) {
    body.push(
      `<p>Repeated ${counted(c.repeat.runs, 'time')}: ${c.repeat.passed} passed, ${c.repeat.failed} failed (${x(c.repeat.verdict)}).</p>`,
    );
  }
  if (c.errors && c.errors.length > 0) body.push(...c.errors.map(pre));
  if (c.evidence !== undefined) {
    const blocks = evidenceBlocks(c.evidence);
    const frames = blocks.find((b) => b.title.startsWith('Frames'));
    const title = frames ? `Evidence: the wire transcript, ${frames.title.toLowerCase()}` : 'Evidence';
    body.push(collapsed(title, blocks.map((b) => `<h4>${x(b.title)}</h4>${pre(b.text)}`).join('')));
  }
  if (c.stderrTail && c.stderrTail.length > 0)
    body.push(collapsed('Driver stderr during the case (last lines)', pre(c.stderrTail.join('\n'))));
  const open = verdict === 'fail' || verdict === 'warn' ? ' open="open"' : '';
  const id = anchor === undefined ? '' : ` id="${x(anchor)}"`;
  return `<details class="case"${id}${open}><summary>${badge(verdict)} <code>${x(c.name)}</code></summary>${body.join('')}</details>`;
}
