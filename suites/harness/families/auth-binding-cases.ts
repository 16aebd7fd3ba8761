/**
 * AHP-AUTH-001: portable endpoint authentication is `bearer` or `oauth`; `mtls` and `workload`
 * bindings are deployment-specific, so a portable registration that names one is refused. A
 * bearer token travels as the `Authorization` header of each HTTP request (`Bearer <token>`),
 * and nowhere else on the wire.
 */
import type { JsonValue } from '../../../protocol/json.js';
import { CaseFailure, type Finding } from '../../common/finding.js';
import type { CaseCheck, HarnessCase } from '../kit/case-model.js';
import { driverCase } from '../kit/define.js';
import type { HarnessFixture } from '../kit/fixture.js';
import { caseRegistration } from '../kit/registration.js';
import { caseTimeoutMs } from '../kit/run-case.js';
import { finding } from '../kit/rules.js';
import { bytesText } from '../kit/wire-records.js';

/** Non-portable bindings, each with the fields its deployment would configure. */
const NON_PORTABLE = [
  {
    type: 'mtls',
    certificateRef: 'secret://ahp/client-cert',
    privateKeyRef: 'secret://ahp/client-key',
    trustRootsRef: 'secret://ahp/roots',
  },
  {
    type: 'workload',
    profile: 'https://profiles.example.com/workload/v1',
    credentialRef: 'secret://ahp/workload',
    issuer: 'https://issuer.example.com',
    audience: 'https://policy.example.com',
  },
] as const;

/** Declares the refusal of each non-portable binding (configure only, over HTTP). */
export function declareNonPortableAuthCases(fixture: HarnessFixture): void {
  for (const binding of NON_PORTABLE) {
    driverCase(
      fixture,
      {
        name: `AHP-AUTH-001/transport:http/registration:${binding.type}-authentication-is-refused`,
        requirements: ['AHP-AUTH-001'],
        transports: ['http'],
      },
      { transport: 'http' },
      async (ctx, { client, mocks, margins }) => {
        const base: HarnessCase = {
          name: 'AHP-AUTH-001/base',
          requirements: ['AHP-AUTH-001'],
          transport: 'http',
          policy: 'fail-closed',
          behaviour: { kind: 'respond' },
        };
        const registration = caseRegistration(base, mocks.endpoints, caseTimeoutMs(base, { margins }));
        const [backend] = registration.hooks as { authentication?: JsonValue }[];
        if (backend) backend.authentication = { ...binding };
        const answer = await client.configure({ registration });
        ctx.evidence({ registration, configure: answer as unknown as JsonValue });
        if (answer.accepted) {
          throw new CaseFailure([
            finding(
              'auth.portable-bindings',
              `the harness accepted ${binding.type} authentication in a portable registration; only bearer and oauth are portable`,
            ),
          ]);
        }
      },
    );
  }
}

/**
 * The token nowhere but its header. (That every request carries `Authorization: Bearer <token>`
 * is the kit's wire check, judged in this case: its rule is AHP-AUTH-001's.)
 */
const bearerOnlyInHeader: CaseCheck = {
  name: 'bearer token only in the Authorization header',
  async run(run, context) {
    await context.waitForFrames(run.index, 'hooks/intercept', 1);
    const problems: Finding[] = [];
    for (const frame of context.recordsNow(run.index).frames) {
      if (bytesText(frame.bytes).includes(context.token)) {
        problems.push(
          finding(
            'auth.token-only-in-header',
            `request ${frame.delivery} carries the bearer token in its body`,
          ),
        );
      }
    }
    return problems;
  },
};

/** The bearer placement case (HTTP, where the binding applies). */
export function bearerPlacementCases(): HarnessCase[] {
  return [
    {
      name: 'AHP-AUTH-001/transport:http/bearer-token-only-in-the-authorization-header',
      requirements: ['AHP-AUTH-001'],
      transport: 'http',
      policy: 'fail-closed',
      auth: 'token',
      behaviour: { kind: 'respond' },
      checks: [bearerOnlyInHeader],
    },
  ];
}
