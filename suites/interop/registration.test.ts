import { describe, expect, it } from 'vitest';
import type { CatalogueScenario } from './format.js';
import { MISSING_TOKEN_ENV, TOKEN_ENV } from '../harness/kit/registration.js';
import { judgeRegistration, registrationPlan } from './registration.js';

const HOOK = {
  id: 'dev.test.backend',
  transport: { type: 'http', url: 'https://policy.example.invalid/hooks' },
  subscriptions: [{ events: ['tool.after'], mode: 'observe', content: { default: 'metadata' } }],
};

function scenario(
  id: string,
  accepted: boolean,
  step: {
    hooks?: unknown[];
    requirements?: unknown[];
    environment?: Record<string, string>;
    interactive?: boolean;
  } = {},
): CatalogueScenario {
  return {
    id,
    category: 'registration',
    steps: [
      {
        op: 'register',
        registration: { protocolVersion: 'draft', hooks: step.hooks ?? [HOOK] },
        requirements: step.requirements ?? [],
        context: { interactive: step.interactive ?? true, environment: step.environment ?? {} },
      },
    ],
    expected: { registrations: [{ accepted }] },
    requests: {},
    responses: {},
  };
}

describe('registrationPlan', () => {
  it('runs a registration document as it is, expecting the scenario answer', () => {
    const plan = registrationPlan(scenario('registration-observe-accepted', true));
    expect(plan).toMatchObject({ expected: true, requirements: ['AHP-REG-001'], needsObserve: true });
    expect(plan?.registration).toEqual({ protocolVersion: 'draft', hooks: [HOOK] });
  });

  it("points a credential at the driver's variable when the scenario's environment holds it, else at one never set", () => {
    const hooks = [{ ...HOOK, authentication: { type: 'bearer', tokenEnv: 'CAT_TOKEN' } }];
    const resolved = registrationPlan(
      scenario('registration-resolved-credential', true, { hooks, environment: { CAT_TOKEN: 'x' } }),
    );
    expect(JSON.stringify(resolved?.registration)).toContain(`"tokenEnv":"${TOKEN_ENV}"`);
    const missing = registrationPlan(scenario('registration-missing-credential', false, { hooks }));
    expect(JSON.stringify(missing?.registration)).toContain(`"tokenEnv":"${MISSING_TOKEN_ENV}"`);
    // The draft wins where the scenario parts from it: an unset variable fails at dispatch.
    expect(missing).toMatchObject({ expected: true, requirements: ['AHPX-FAIL-004'] });
    expect(missing?.draftBecause).toMatch(/the scenario refuses it, but by the draft/);
    expect(registrationPlan(scenario('registration-unsupported-event', false))?.eitherBecause).toMatch(
      /AHP-REG-002/,
    );
  });

  it('judges each refusal under the specific registration rule of the harness cases, and one without such a rule not at all', () => {
    const hooks = [HOOK, HOOK];
    expect(registrationPlan(scenario('registration-duplicate-backend', false, { hooks }))).toMatchObject({
      requirements: ['AHP-REG-001'],
      rule: 'registration.backend-id-unique',
    });
    expect(registrationPlan(scenario('registration-observe-only-interception', false))?.rule).toBe(
      'registration.intercept-interceptable-only',
    );
    expect(registrationPlan(scenario('registration-unenforceable-managed-scope', false))?.rule).toBe(
      'registration.managed-scope-served',
    );
    expect(registrationPlan(scenario('registration-observe-accepted', true))?.rule).toBe(
      'registration.valid-accepted',
    );
    expect(registrationPlan(scenario('registration-refused-for-a-new-reason', false))?.inexpressible).toBe(
      'no registration rule of ours says why the scenario refuses this document',
    );
  });

  it('cannot express enforcement requirements or a host without an interactive user', () => {
    const ask = registrationPlan(
      scenario('registration-unenforceable-ask', false, {
        requirements: [{ effects: ['ask'] }],
        interactive: false,
      }),
    );
    expect(ask?.inexpressible).toMatch(/configure cannot carry/);
    expect(registrationPlan({ ...scenario('x', true), category: 'lineage' })).toBeUndefined();
  });
});

describe('judgeRegistration', () => {
  it('passes the expected answer and fails the other, naming the refusal', () => {
    expect(judgeRegistration({ expected: true }, true, [])).toEqual({});
    expect(judgeRegistration({ expected: false }, true, []).problem).toMatch(
      /accepted a registration the scenario refuses/,
    );
    expect(judgeRegistration({ expected: true }, false, [{ path: 'hooks[0]', message: 'bad' }]).problem).toBe(
      'the harness refused a registration the scenario accepts: hooks[0] bad',
    );
  });

  it('accepts either answer where the draft allows both, and says which was given', () => {
    const verdict = judgeRegistration({ expected: false, eitherBecause: 'both stand' }, true, []);
    expect(verdict).toEqual({ note: 'the harness accepted the registration, which stands: both stand' });
  });
});
