/**
 * Checks of the synthetic-denial family: the reason a fail-closed denial shows holds nothing of
 * the backend (its bytes, error message or data), of the network (URL, host, port, command), no
 * credential and no stack trace; and the audit tells a synthetic denial from an explicit one.
 */
import { randomBytes } from 'node:crypto';
import type { Finding } from '../../common/finding.js';
import type { CaseCheck, CaseRunContext, StepRun } from '../kit/case-model.js';
import { interceptEntries } from '../kit/judge.js';
import { finding } from '../kit/rules.js';
import { writtenText } from '../kit/wire-records.js';

/** A marker the mock puts in everything it sends in these cases; it must never reach the model. */
export const CANARY = `ahp-canary-${randomBytes(6).toString('hex')}`;

const STACK_PATTERNS: readonly RegExp[] = [
  /\n\s*at\s+\S/,
  /\(\S+:\d+:\d+\)/,
  /\bnode:internal\b/,
  /\bat \S+\.(?:js|mjs|ts):\d+/,
];

/** Words of the mock's replies long enough that finding one in the reason means it was copied. */
function distinctiveFragments(written: readonly string[]): string[] {
  return [...new Set(written.join(' ').split(/[^A-Za-z0-9_./-]+/))].filter((w) => w.length >= 12);
}

/** Every leak in `reason` (AHPX-SYN-003's rule). */
export function reasonLeaks(reason: string, run: StepRun, context: CaseRunContext): Finding[] {
  const problems: Finding[] = [];
  const leak = (message: string) => problems.push(finding('synthetic.no-details', message));
  const found = (what: string, needle: string) => {
    if (needle.length > 0 && reason.includes(needle)) leak(`the reason shows ${what} ("${needle}")`);
  };
  found('the backend content marker', CANARY);
  found('the bearer token', context.token);
  const url = new URL(context.httpUrl);
  found('the backend URL', context.httpUrl.replace(/\/$/, ''));
  found('the backend host and port', url.host);
  found('the backend address', url.hostname);
  found('the backend port', `:${url.port}`);
  for (const arg of context.stdioCommand.slice(1))
    if (arg.length >= 8) found('the backend command line', arg);
  for (const fragment of distinctiveFragments(writtenText(run.records.frames))) {
    found('bytes the backend sent', fragment);
  }
  if (STACK_PATTERNS.some((p) => p.test(reason))) leak('the reason shows a stack trace');
  return problems;
}

/** AHPX-SYN-002/003: the synthetic reason is present, generic, and leaks nothing. */
export const reasonIsGeneric: CaseCheck = {
  name: 'synthetic reason leaks nothing',
  run(run, context) {
    if (run.result.decision !== 'deny' || !run.result.synthetic) return [];
    const reason = run.result.reason;
    if (reason === undefined) return context.untested('the driver reports no reason for a synthetic denial');
    if (reason.trim() === '') {
      return [finding('synthetic.generic-reason', 'the synthetic denial shows an empty reason')];
    }
    return reasonLeaks(reason, run, context);
  },
};

/** AHPX-SYN-001: the last call's audit entry differs from the first's (a synthetic and an explicit denial). */
export const auditTellsThemApart: CaseCheck = {
  name: 'audit tells synthetic from explicit',
  run(run, context) {
    const [first] = context.runs;
    if (!first || first === run) return [];
    const a = interceptEntries(first.result, context.backendId)[0];
    const b = interceptEntries(run.result, context.backendId)[0];
    if (!a || !b) {
      return [
        finding('synthetic.audit-distinguishable', 'the audit lacks an entry to tell the two denials apart'),
      ];
    }
    const same = a.outcome === b.outcome && a.synthetic === b.synthetic && a.failureClass === b.failureClass;
    const message = 'the audit records of a synthetic and an explicit denial are the same';
    return same ? [finding('synthetic.audit-distinguishable', message)] : [];
  },
};
