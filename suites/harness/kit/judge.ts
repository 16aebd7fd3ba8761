/**
 * Judges a driver's `invoke` answer against the derived expectation: the settled decision, the
 * synthetic and interrupted flags, and the audit entry of the intercept subscription. Fields a
 * driver leaves out are not guessed at; fields it reports must be right. Pure; returns every
 * problem at once, each a sentence.
 */
import type { DriverAuditEntry, InvokeResult } from '../../driver/index.js';
import type { Expected } from './case-model.js';

/** The audit entries of the case's intercept subscription (entries marked observe excluded). */
export function interceptEntries(result: InvokeResult, backendId: string): DriverAuditEntry[] {
  return result.audit.filter(
    (a) => a.backendId === backendId && a.mode !== 'observe' && a.boundaryCopy !== true,
  );
}

function judgeAudit(expected: Expected, entry: DriverAuditEntry): string[] {
  const problems: string[] = [];
  const want = expected.audit;
  if (entry.outcome !== want.outcome) {
    problems.push(
      `the audit outcome is "${entry.outcome}" but ${expected.because} makes it "${want.outcome}"`,
    );
  }
  if (entry.failureClass !== undefined) {
    if (want.outcome !== 'operational-failure') {
      problems.push(
        `the audit names failure class "${entry.failureClass}" for an outcome that is no operational failure`,
      );
    } else if (want.classes && !want.classes.includes(entry.failureClass)) {
      problems.push(
        `the audit names failure class "${entry.failureClass}" where ${want.classes.map((c) => `"${c}"`).join(' or ')} was expected`,
      );
    }
  }
  if (entry.policy !== undefined && entry.policy !== want.policy) {
    problems.push(`the audit names policy "${entry.policy}" but the subscription declares "${want.policy}"`);
  }
  if (entry.synthetic !== undefined) {
    const wantSynthetic = want.synthetic ?? false;
    if (entry.synthetic !== wantSynthetic) {
      problems.push(
        `the audit marks the entry synthetic: ${entry.synthetic}, but it must be ${wantSynthetic} (${expected.because})`,
      );
    }
  }
  return problems;
}

/** Every way the answer departs from the expectation (empty when it conforms). */
export function judgeAnswer(expected: Expected, result: InvokeResult, backendId: string): string[] {
  const problems: string[] = [];
  if (result.decision !== expected.decision) {
    problems.push(
      `the decision is "${result.decision}" but ${expected.because} makes it "${expected.decision}"`,
    );
  }
  if (result.interrupted !== expected.interrupted) {
    problems.push(
      `interrupted is ${result.interrupted} but must be ${expected.interrupted} (${expected.because})`,
    );
  }
  if (result.interrupted && result.decision === 'continue') {
    problems.push('an interrupted call is reported as "continue": interrupted work is never permission');
  }
  if (result.decision === 'deny' && result.synthetic !== expected.synthetic) {
    problems.push(
      `the denial is ${result.synthetic ? 'synthetic' : 'explicit'} but ${expected.because} makes it ${expected.synthetic ? 'synthetic' : 'explicit'}`,
    );
  }
  if (result.decision === 'continue' && result.synthetic) {
    problems.push('a "continue" is marked synthetic: only a local denial can be synthetic');
  }
  if (expected.ending !== undefined && result.ending !== undefined && result.ending !== expected.ending) {
    problems.push(`the call ended "${result.ending}" but "${expected.ending}" was expected`);
  }
  const entries = interceptEntries(result, backendId);
  if (entries.length === 0) {
    if (expected.wire !== 'none' || expected.audit.outcome === 'operational-failure') {
      problems.push(`the audit has no entry for the intercept subscription of "${backendId}"`);
    }
    return problems;
  }
  if (entries.length > 1)
    problems.push(`the audit has ${entries.length} entries for one intercept subscription`);
  return [...problems, ...judgeAudit(expected, entries[0] as DriverAuditEntry)];
}
