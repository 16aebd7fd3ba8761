// Synthetic denial: the audit tells a fail-closed denial from an explicit one (AHPX-SYN-001, MUST);
// the reason shown is generic and leaks no backend bytes, network details, credentials or stack
// traces (AHPX-SYN-002/003, SHOULD: warnings unless --strict).
import type { Behaviour } from '../../../mock-backend/index.js';
import type { CaseStep, HarnessCase } from '../kit/case-model.js';
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { HARNESS_TRANSPORTS, type HarnessTransport } from '../kit/timing.js';
import { EXPLICIT_DENY_REASON } from './fail-matrix.js';
import { auditTellsThemApart, CANARY, reasonIsGeneric } from './synthetic-checks.js';

/** Failures whose every part carries the canary, so any copy of backend content is visible. */
function leakySteps(transport: HarnessTransport): CaseStep[] {
  const steps: CaseStep[] = [
    {
      label: 'jsonrpc-error-with-message-and-data',
      behaviour: {
        kind: 'rpc-error',
        code: -32004,
        message: `${CANARY} evaluation failed in /srv/policy/engine.js`,
        data: { detail: CANARY, stack: `Error: ${CANARY}\n    at evaluate (/srv/policy/engine.js:10:5)` },
      },
    },
    {
      label: 'malformed-json',
      behaviour: { kind: 'malformed-json', text: `<html>${CANARY} upstream error</html>` },
    },
    {
      label: 'rejected-deny-reason',
      behaviour: { kind: 'respond', effects: [{ type: 'deny', reason: `${CANARY} denied`, colour: 'red' }] },
    },
  ];
  if (transport === 'http') {
    const body = { text: `{"error":"${CANARY} database at 10.1.2.3:5432 unreachable"}` };
    const status: Behaviour = { kind: 'http-status', status: 500, contentType: 'application/json', body };
    steps.push({ label: 'http-500-with-body', behaviour: status });
  }
  return steps;
}

function leakCase(transport: HarnessTransport): HarnessCase {
  const [first, ...rest] = leakySteps(transport) as [CaseStep, ...CaseStep[]];
  return {
    name: `AHPX-SYN-003/transport:${transport}/policy:fail-closed/reason-shows-nothing-of-the-failure`,
    requirements: ['AHPX-SYN-003', 'AHPX-SYN-002'],
    transport,
    policy: 'fail-closed',
    ...first,
    then: rest,
    checks: [reasonIsGeneric],
  };
}

/** A deadline: the reason must not name the backend's address or command either. */
function deadlineCase(transport: HarnessTransport): HarnessCase {
  return {
    name: `AHPX-SYN-003/transport:${transport}/policy:fail-closed/deadline-reason-shows-no-endpoint`,
    requirements: ['AHPX-SYN-003', 'AHPX-SYN-002'],
    transport,
    policy: 'fail-closed',
    behaviour: { kind: 'hang' },
    checks: [reasonIsGeneric],
  };
}

/** A 401 under bearer auth: the token the harness sent must not come back in the reason. */
function tokenCase(): HarnessCase {
  return {
    name: 'AHPX-SYN-003/transport:http/policy:fail-closed/reason-shows-no-credentials',
    requirements: ['AHPX-SYN-003', 'AHPX-SYN-002'],
    transport: 'http',
    policy: 'fail-closed',
    auth: 'token',
    behaviour: { kind: 'http-unauthorized', challenge: `Bearer realm="${CANARY}", error="invalid_token"` },
    checks: [reasonIsGeneric],
  };
}

function auditCase(transport: HarnessTransport): HarnessCase {
  return {
    name: `AHPX-SYN-001/transport:${transport}/policy:fail-closed/audit-tells-synthetic-from-explicit`,
    requirements: ['AHPX-SYN-001'],
    transport,
    policy: 'fail-closed',
    label: 'synthetic',
    behaviour: { kind: 'rpc-error', code: -32004 },
    then: [{ label: 'explicit', behaviour: { kind: 'deny', reason: EXPLICIT_DENY_REASON } }],
    checks: [auditTellsThemApart],
  };
}

harnessCases(useHarnessFixture({ concurrent: true }), [
  ...HARNESS_TRANSPORTS.map(auditCase),
  ...HARNESS_TRANSPORTS.map(leakCase),
  ...HARNESS_TRANSPORTS.map(deadlineCase),
  tokenCase(),
]);
