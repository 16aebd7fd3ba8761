/**
 * The registration document of a case: one backend (the mock, or an endpoint that fails before
 * the mock is reached) with the case's intercept subscription, an optional observe subscription
 * and optional bearer auth. Pure: endpoints come in as values.
 */
import type { JsonObject } from '../../../protocol/json.js';
import { PROTOCOL_VERSION } from '../../../protocol/wire-types.js';
import type { HarnessCase } from './case-model.js';

/** The backend id of every case's registration (reverse-DNS, as registration requires). */
export const CASE_BACKEND_ID = 'dev.ahp-conformance.mock';

/** The variable holding the bearer token in the driver's environment. */
export const TOKEN_ENV = 'AHP_CONFORMANCE_BEARER_TOKEN';
/** A token variable the suite removes from the driver's environment. */
export const MISSING_TOKEN_ENV = 'AHP_CONFORMANCE_ABSENT_TOKEN';
/** A command no system has, for launch failures. */
export const UNLAUNCHABLE_COMMAND = '/nonexistent/ahp-conformance/no-such-backend';

/** Where the mock listens, as the fixture started it. */
export interface MockEndpoints {
  /** argv of a stdio mock process stepping on the fixture's control server. */
  stdio: string[];
  /** The HTTP mock's URL. */
  httpUrl: string;
  /** A loopback URL where nothing listens. */
  refusedUrl: string;
}

function transportFor(testCase: HarnessCase, endpoints: MockEndpoints): JsonObject {
  if (testCase.transport === 'http') {
    return { type: 'http', url: testCase.endpoint === 'refused' ? endpoints.refusedUrl : endpoints.httpUrl };
  }
  const [command, ...args] =
    testCase.endpoint === 'unlaunchable'
      ? [UNLAUNCHABLE_COMMAND]
      : (endpoints.stdio as [string, ...string[]]);
  return {
    type: 'stdio',
    command,
    args,
    lifecycle: testCase.transport === 'stdio-persistent' ? 'persistent' : 'per_event',
  };
}

/** The intercept subscription (or the observe one a patch turns it into). */
export function interceptSubscription(testCase: HarnessCase, timeoutMs: number): JsonObject {
  const patch = testCase.subscription ?? {};
  const subscription: JsonObject = {
    events: ['tool.before'],
    mode: patch.mode ?? 'intercept',
    timeoutMs,
    failurePolicy: testCase.policy,
    content: { default: 'metadata' },
  };
  if (patch.mode === 'observe') {
    delete subscription.timeoutMs;
    delete subscription.failurePolicy;
  }
  for (const key of patch.omit ?? []) delete subscription[key];
  return { ...subscription, ...patch.set };
}

/** The case's registration document. */
export function caseRegistration(
  testCase: HarnessCase,
  endpoints: MockEndpoints,
  timeoutMs: number,
): JsonObject {
  const subscriptions: JsonObject[] = [interceptSubscription(testCase, timeoutMs)];
  if (testCase.observe) {
    subscriptions.push({
      events: ['tool.before'],
      mode: 'observe',
      content: { default: 'metadata' },
      ...testCase.observe.set,
    });
  }
  const backend: JsonObject = { id: CASE_BACKEND_ID, transport: transportFor(testCase, endpoints) };
  if (testCase.auth !== undefined) {
    backend.authentication = {
      type: 'bearer',
      tokenEnv: testCase.auth === 'token' ? TOKEN_ENV : MISSING_TOKEN_ENV,
    };
  }
  backend.subscriptions = subscriptions;
  return { protocolVersion: PROTOCOL_VERSION, hooks: [backend] };
}
