/**
 * Judges a driver's `invoke` answer against the derived expectation: the settled decision, the
 * synthetic and interrupted flags, and the audit entry of the intercept subscription. Fields a
 * driver leaves out are not guessed at; fields it reports must be right. Pure; returns every
 * finding at once, each naming its rule (outcome-rules.ts picks the outcome's).
 */
import type { DriverAuditEntry, InvokeResult } from '../../driver/index.js';
import type { Finding } from '../../common/finding.js';
import type { Expected } from './case-model.js';
import { auditOutcomeFinding, endingFinding, outcomeFinding } from './outcome-rules.js';
import { finding } from './rules.js';

/** The audit entries of the case's intercept subscription (entries marked observe excluded). */
export function interceptEntries(result: InvokeResult, backendId: string): DriverAuditEntry[] {
  return result.audit.filter(
    (a) => a.backendId === backendId && a.mode !== 'observe' && a.boundaryCopy !== true,
  );
}

function judgeAudit(expected: Expected, result: InvokeResult, entry: DriverAuditEntry): Finding[] {
  const findings: Finding[] = [];
  const want = expected.audit;
  if (entry.outcome !== want.outcome) {
    findings.push(
      auditOutcomeFinding(
        expected,
        result,
        entry,
        `the audit outcome is "${entry.outcome}" but ${expected.because} makes it "${want.outcome}"`,
      ),
    );
  }
  if (entry.failureClass !== undefined) {
    if (want.outcome !== 'operational-failure') {
      findings.push(
        finding(
          'audit.failure-class',
          `the audit names failure class "${entry.failureClass}" for an outcome that is no operational failure`,
          { way: 'not-a-failure' },
        ),
      );
    } else if (want.classes && !want.classes.includes(entry.failureClass)) {
      findings.push(
        finding(
          'audit.failure-class',
          `the audit names failure class "${entry.failureClass}" where ${want.classes.map((c) => `"${c}"`).join(' or ')} was expected`,
        ),
      );
    }
  }
  if (entry.policy !== undefined && entry.policy !== want.policy) {
    findings.push(
      finding(
        'audit.policy',
        `the audit names policy "${entry.policy}" but the subscription declares "${want.policy}"`,
      ),
    );
  }
  if (entry.synthetic !== undefined) {
    const wantSynthetic = want.synthetic ?? false;
    if (entry.synthetic !== wantSynthetic) {
      findings.push(
        finding(
          'synthetic.audit-distinguishable',
          `the audit marks the entry synthetic: ${entry.synthetic}, but it must be ${wantSynthetic} (${expected.because})`,
        ),
      );
    }
  }
  return findings;
}

/** Every way the answer departs from the expectation (empty when it conforms). */
export function judgeAnswer(expected: Expected, result: InvokeResult, backendId: string): Finding[] {
  const findings: Finding[] = [];
  const entries = interceptEntries(result, backendId);
  const entry = entries[0];
  const outcome = (message: string) => findings.push(outcomeFinding(expected, result, entry, message));
  if (result.decision !== expected.decision) {
    outcome(`the decision is "${result.decision}" but ${expected.because} makes it "${expected.decision}"`);
  }
  if (result.interrupted !== expected.interrupted) {
    outcome(`interrupted is ${result.interrupted} but must be ${expected.interrupted} (${expected.because})`);
  }
  if (result.interrupted && result.decision === 'continue') {
    findings.push(
      finding(
        'interrupt.never-permission',
        'an interrupted call is reported as "continue": interrupted work is never permission',
      ),
    );
  }
  if (result.decision === 'deny' && result.synthetic !== expected.synthetic) {
    outcome(
      `the denial is ${result.synthetic ? 'synthetic' : 'explicit'} but ${expected.because} makes it ${expected.synthetic ? 'synthetic' : 'explicit'}`,
    );
  }
  if (result.decision === 'continue' && result.synthetic) {
    findings.push(
      finding(
        'synthetic.audit-distinguishable',
        'a "continue" is marked synthetic: only a local denial can be synthetic',
        { way: 'continue-marked-synthetic' },
      ),
    );
  }
  if (expected.ending !== undefined && result.ending !== undefined && result.ending !== expected.ending) {
    findings.push(
      endingFinding(
        expected,
        result,
        entry,
        `the call ended "${result.ending}" but "${expected.ending}" was expected`,
      ),
    );
  }
  if (entry === undefined) {
    if (expected.wire !== 'none' || expected.audit.outcome === 'operational-failure') {
      findings.push(
        finding('audit.entry', `the audit has no entry for the intercept subscription of "${backendId}"`, {
          way: 'missing',
        }),
      );
    }
    return findings;
  }
  if (entries.length > 1) {
    findings.push(
      finding('audit.entry', `the audit has ${entries.length} entries for one intercept subscription`, {
        way: 'several',
      }),
    );
  }
  return [...findings, ...judgeAudit(expected, result, entry)];
}
