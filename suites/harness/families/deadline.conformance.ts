/**
 * AHP-FAIL-002 and the deadline clauses (AHPX-DL-*): `timeoutMs` is a positive integer, the
 * deadline is enforced whatever the backend does, a late reply changes nothing (for that call or
 * later ones: deadline-late.ts), and the deadline also covers connection setup. The stdio cases of
 * the same clauses are in deadline-stdio.conformance.ts and deadline-late-stdio.conformance.ts:
 * their deadlines are spent in full, and in one file they made it the run's longest by far
 * (cases of a file run in order, files in parallel).
 */
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { JsonValue } from '../../../protocol/json.js';
import type { HarnessCase } from '../kit/case-model.js';
import { driverCase, harnessCases } from '../kit/define.js';
import { configureHarness } from '../kit/lane-driver.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { anyTransport } from '../kit/features.js';
import { caseRegistration } from '../kit/registration.js';
import { finding } from '../kit/rules.js';
import { CaseFailure } from '../../common/finding.js';
import { runCase } from '../kit/run-case.js';
import { HARNESS_TRANSPORTS } from '../kit/timing.js';
import { lateReplyCases } from './deadline-late.js';
import { justLateCases, slowBackendCases } from './deadline-slow.js';
import { settlesByTheDeadline } from './deadline-timing.js';

const fixture = useHarnessFixture({ concurrent: true });
const POLICIES: readonly FailurePolicy[] = ['fail-open', 'fail-closed'];

/** Values that are not a positive integer, each with the name its case carries. */
const INVALID_TIMEOUTS: ReadonlyArray<[string, JsonValue]> = [
  ['zero', 0],
  ['negative', -500],
  ['fractional', 1500.5],
  ['string', '1500'],
];

const cases: HarnessCase[] = [];
cases.push(...slowBackendCases(fixture, 'http'), ...justLateCases());

for (const policy of POLICIES) {
  // The HTTP mock accepts the connection and reads the request, then never answers.
  cases.push({
    name: `AHPX-DL-001/transport:http/policy:${policy}/accepted-connection-never-answers`,
    requirements: ['AHPX-DL-001'],
    transport: 'http',
    policy,
    behaviour: { kind: 'hang' },
    checks: [settlesByTheDeadline(fixture)],
  });
}

harnessCases(fixture, [...cases, ...lateReplyCases(fixture, 'http')]);

// Registration checks: only `configure` runs, so any transport the driver announces serves.
for (const [label, value] of INVALID_TIMEOUTS) {
  const name = `AHP-FAIL-002/registration/timeoutMs:${label}/rejected`;
  driverCase(
    fixture,
    { name, requirements: ['AHP-FAIL-002'], transports: [...HARNESS_TRANSPORTS] },
    { transport: 'any' },
    (ctx, state) =>
      runCase(
        state,
        {
          name,
          requirements: ['AHP-FAIL-002'],
          transport: anyTransport(state.info),
          policy: 'fail-closed',
          behaviour: { kind: 'respond' },
          subscription: { set: { timeoutMs: value } },
        },
        ctx,
      ),
  );
}

/** Boundary values a harness SHOULD accept (AHPX-DL-003). */
for (const timeoutMs of [100, 30_000]) {
  driverCase(
    fixture,
    {
      name: `AHPX-DL-003/registration/timeoutMs:${timeoutMs}/accepted`,
      requirements: ['AHPX-DL-003'],
      transports: [...HARNESS_TRANSPORTS],
    },
    { transport: 'any' },
    async (ctx, state) => {
      const registration = caseRegistration(
        { transport: anyTransport(state.info), policy: 'fail-closed' } as HarnessCase,
        state.mocks.endpoints,
        timeoutMs,
      );
      const answer = await configureHarness(state, { registration }, ctx);
      ctx.evidence({ registration, configure: answer as unknown as JsonValue });
      if (!answer.accepted) {
        const issues = answer.issues.map((i) => `${i.path} ${i.message}`).join('; ');
        throw new CaseFailure([
          finding(
            'registration.timeout-range',
            `the harness refused timeoutMs ${timeoutMs}, inside the 100..30000 ms range: ${issues}`,
          ),
        ]);
      }
    },
  );
}
