/**
 * AHP registration documents that point a harness at a mock: one backend, one subscription, with
 * explicit defaults (registration has no implicit failure policy, so the helper never leaves it out).
 */
import type { JsonObject } from '../../protocol/json.js';

/** The subscription of a generated registration. */
export interface RegistrationOptions {
  /** Backend id (reverse-DNS). Default `dev.ahp-conformance.mock`. */
  id?: string;
  /** Default `["tool.before"]`. */
  events?: string[];
  /** Default `intercept`. */
  mode?: 'intercept' | 'observe';
  /** Intercept only. Default 1000. */
  timeoutMs?: number;
  /** Intercept only. Default `fail-closed`. */
  failurePolicy?: 'fail-open' | 'fail-closed';
  /** Default `{"default": "metadata"}`. */
  content?: JsonObject;
}

/** Default backend id of generated registrations. */
export const DEFAULT_BACKEND_ID = 'dev.ahp-conformance.mock';

/** A registration document with one backend on `transport`. */
export function registrationDocument(
  transport: JsonObject,
  options: RegistrationOptions = {},
  authentication?: JsonObject,
): JsonObject {
  const mode = options.mode ?? 'intercept';
  const subscription: JsonObject = { events: options.events ?? ['tool.before'], mode };
  if (mode === 'intercept') {
    subscription.timeoutMs = options.timeoutMs ?? 1000;
    subscription.failurePolicy = options.failurePolicy ?? 'fail-closed';
  }
  subscription.content = options.content ?? { default: 'metadata' };
  const backend: JsonObject = { id: options.id ?? DEFAULT_BACKEND_ID, transport };
  if (authentication) backend.authentication = authentication;
  backend.subscriptions = [subscription];
  return { protocolVersion: 'draft', hooks: [backend] };
}
