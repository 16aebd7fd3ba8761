/**
 * AHPX-RETRY-003: an observer transport may retry a notification whose delivery it saw fail; a
 * retry keeps the exact payload and identities. Over HTTP the failure is visible (a 500), so a
 * harness allowed retries may resend: every copy must be byte-identical and carry no id. A harness
 * that does not retry observations (they are best effort) leaves the case untested.
 */
import type { Finding } from '../../common/finding.js';
import type { CaseCheck, HarnessCase } from '../kit/case-model.js';
import { finding } from '../kit/rules.js';
import { bytesText } from '../kit/wire-records.js';

const copiesIdentical: CaseCheck = {
  name: 'retried notification identical',
  async run(run, context) {
    // The call owns its observations, so every retry happened before the driver answered; an
    // HTTP mock records each request as it arrives.
    await context.waitForFrames(run.index, 'hooks/observe', 1);
    const copies = context.recordsNow(run.index).notifications;
    if (copies.length === 0) {
      return [finding('observe.delivered', 'no hooks/observe notification for this call reached the mock')];
    }
    if (copies.length === 1) {
      return context.untested(
        'the harness did not retry the failed notification (observer retries are optional)',
      );
    }
    const [first, ...rest] = copies;
    const problems: Finding[] = [];
    const differs = (message: string) => problems.push(finding('observe.retry-identical', message));
    for (const copy of copies) {
      if (copy.hasId) differs(`notification ${copy.delivery} carries an id`);
    }
    for (const copy of rest) {
      if (first && bytesText(copy.bytes) !== bytesText(first.bytes)) {
        differs(`notification ${copy.delivery} differs from the first copy (${first.delivery})`);
      }
    }
    return problems;
  },
};

/** The observer-retry case (HTTP, where a failed notification is visible to the harness). */
export function observerRetryCases(): HarnessCase[] {
  return [
    {
      name: 'AHPX-RETRY-003/transport:http/policy:fail-closed/retried-notification-is-byte-identical',
      requirements: ['AHPX-RETRY-003'],
      transport: 'http',
      policy: 'fail-closed',
      behaviour: { kind: 'respond' },
      retries: 2,
      observe: {
        behaviour: {
          kind: 'sequence',
          steps: [{ kind: 'http-status', status: 500 }],
          then: { kind: 'silent' },
        },
      },
      checks: [copiesIdentical],
    },
  ];
}
