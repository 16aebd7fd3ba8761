// AHP-CORE-001 / AHP-CORE-002: the claim the report states comes from the driver's `initialize`
// (role harness, bindings, profiles); it must be one the suite can hold the harness to, and the
// harness must really intercept a tool.before over every binding it claims.
// AHP-CORE-003: unknown result fields ignored, unknown effect fields rejected (core-unknown-fields-cases.ts).
// AHP-TB-001 / AHP-CAP-002 / AHP-EXT-001: the intercept request on the wire (core-wire-event-cases.ts).
// AHP-DEC-002 / AHP-DEC-003 / AHP-SEC-001 (driver protocol v1.1): an accepted deny is not executed, and
// neither an empty effect list, an allow effect nor a fail-open failure lifts a host deny or ask
// (host-permission-cases.ts). Here rather than in a file of their own: a suite file costs a driver.
// AHP-CONTENT-001 / AHP-CONTENT-002: model-visible content and its selection on the wire (content-cases.ts).
import type { HarnessCase } from '../kit/case-model.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { runCase } from '../kit/run-case.js';
import { CaseFailure } from '../../common/finding.js';
import { findingsOf } from '../kit/rules.js';
import { claimFor, claimProblems, interceptionTransports } from './core-claim-rules.js';
import { unknownFieldCases } from './core-unknown-fields-cases.js';
import { wireEventCases } from './core-wire-event-cases.js';
import { declareContentCases } from './content-cases.js';
import { driverCase, harnessCases } from '../kit/define.js';
import { declareHostPermissionCases } from './host-permission-cases.js';

// Every case here runs through runCase, so consecutive cases with the same registration may share it.
const fixture = useHarnessFixture({ reuseConfigured: true });
driverCase(
  fixture,
  { name: 'AHP-CORE-001/claim-states-role-bindings-and-profiles', requirements: ['AHP-CORE-001'] },
  {},
  (ctx, { info }) => {
    ctx.evidence({ claim: claimFor(info) as never, implementation: info.implementation });
    const problems = claimProblems(info);
    if (problems.length > 0) throw new CaseFailure(findingsOf('claim.consistent', problems));
  },
);

driverCase(
  fixture,
  {
    name: 'AHP-CORE-002/base-and-tool-interception-over-every-claimed-binding',
    requirements: ['AHP-CORE-002'],
    transports: ['stdio-persistent', 'stdio-per_event', 'http'],
  },
  {},
  async (ctx, state) => {
    const transports = interceptionTransports(state.info);
    if (transports.length === 0) ctx.untested('the driver announces no transport feature for its bindings');
    ctx.evidence({ exercised: transports });
    for (const transport of transports) {
      const probe: HarnessCase = {
        name: `AHP-CORE-002/${transport}`,
        requirements: ['AHP-CORE-002'],
        transport,
        policy: 'fail-closed',
        label: `${transport}-deny`,
        behaviour: { kind: 'deny', reason: 'Tool interception probe.' },
        then: [{ label: `${transport}-empty`, behaviour: { kind: 'respond' } }],
      };
      await runCase(state, probe, ctx);
    }
  },
);

harnessCases(fixture, [...unknownFieldCases(), ...wireEventCases()]);

declareHostPermissionCases(fixture);
declareContentCases(fixture);
