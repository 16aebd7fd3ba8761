/**
 * AHP-FAIL-001 / AHPX-FAIL-003 / AHPX-FAIL-006: registrations a harness must refuse at `configure`
 * (no implicit failure policy; observe subscriptions carry neither failurePolicy nor timeoutMs).
 * Only `configure` runs, so every transport is cheap; each is checked, since a harness may
 * validate subscriptions per transport.
 */
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { HarnessCase, SubscriptionPatch } from '../kit/case-model.js';
import { HARNESS_TRANSPORTS } from '../kit/timing.js';

interface Refusal {
  requirements: string[];
  label: string;
  patch: SubscriptionPatch;
}

const REFUSALS: readonly Refusal[] = [
  {
    requirements: ['AHPX-FAIL-003', 'AHP-FAIL-001'],
    label: 'intercept-without-failure-policy',
    patch: { omit: ['failurePolicy'] },
  },
  {
    requirements: ['AHP-FAIL-001', 'AHPX-FAIL-003'],
    label: 'intercept-with-unknown-failure-policy',
    patch: { set: { failurePolicy: 'fail-safe' } },
  },
  {
    requirements: ['AHP-FAIL-001', 'AHPX-FAIL-003'],
    label: 'intercept-with-null-failure-policy',
    patch: { set: { failurePolicy: null } },
  },
  {
    requirements: ['AHPX-FAIL-006'],
    label: 'observe-with-failure-policy',
    patch: { mode: 'observe', set: { failurePolicy: 'fail-open' } },
  },
  {
    requirements: ['AHPX-FAIL-006'],
    label: 'observe-with-timeout',
    patch: { mode: 'observe', set: { timeoutMs: 1000 } },
  },
];

const policy: FailurePolicy = 'fail-closed';

/** Every refusal case, each transport. */
export function registrationRefusalCases(): HarnessCase[] {
  return HARNESS_TRANSPORTS.flatMap((transport) =>
    REFUSALS.map((r) => ({
      name: `${r.requirements[0] as string}/transport:${transport}/registration:${r.label}-is-refused`,
      requirements: r.requirements,
      transport,
      policy,
      behaviour: { kind: 'respond' },
      subscription: r.patch,
    })),
  );
}
