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

/** The backend id of a case's observe subscription (the same mock, its own registration entry). */
export const OBSERVER_BACKEND_ID = 'dev.ahp-conformance.observer';

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

function backendEntry(
  id: string,
  testCase: HarnessCase,
  endpoints: MockEndpoints,
  ...subscriptions: JsonObject[]
): JsonObject {
  const backend: JsonObject = { id, transport: transportFor(testCase, endpoints) };
  if (testCase.auth !== undefined) {
    backend.authentication = {
      type: 'bearer',
      tokenEnv: testCase.auth === 'token' ? TOKEN_ENV : MISSING_TOKEN_ENV,
    };
  }
  backend.subscriptions = subscriptions;
  return backend;
}

/**
 * The case's registration document: the intercept backend, then (for `observe`) a second entry on
 * the same mock with the observe subscription, so audit entries tell the two apart by backend id
 * and an observer's process is not the interceptor's; a `shared` observer's subscription goes on
 * the intercept backend's entry instead, after the intercept one (audit entries differ by mode).
 */
export function caseRegistration(
  testCase: HarnessCase,
  endpoints: MockEndpoints,
  timeoutMs: number,
): JsonObject {
  const intercept = interceptSubscription(testCase, timeoutMs);
  const hooks = [backendEntry(CASE_BACKEND_ID, testCase, endpoints, intercept)];
  if (testCase.observe) {
    const observe: JsonObject = {
      events: ['tool.before'],
      mode: 'observe',
      content: { default: 'metadata' },
      ...testCase.observe.set,
    };
    if (testCase.observe.entry === 'shared')
      hooks[0] = backendEntry(CASE_BACKEND_ID, testCase, endpoints, intercept, observe);
    else hooks.push(backendEntry(OBSERVER_BACKEND_ID, testCase, endpoints, observe));
  }
  return { protocolVersion: PROTOCOL_VERSION, hooks };
}
