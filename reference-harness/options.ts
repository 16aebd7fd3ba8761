import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../protocol/clock.js';
import { isAbsoluteUri } from '../protocol/events.js';
import type { Violation } from '../protocol/json.js';
import type { BackendRegistration, Registration } from '../protocol/registration.js';
import { validateRegistration } from '../protocol/registration.js';
import {
  checkAdvertisedEffects,
  DEFAULT_ADVERTISED_EFFECTS,
  type SupportedEffect,
} from './advertised-effects.js';
import { HarnessConfigError } from './errors.js';
import { unsupportedByHost } from './host-support.js';
import { DEFAULT_OBSERVER_BOUND_MS } from './observers.js';
import type { BackendTransport, TokenProvider } from './transport.js';
import { sendUploadOverHttp, type UploadSender } from './transports/upload.js';

/** Options of `createHarness`. */
export interface HarnessOptions {
  /** An AHP registration document; validated before anything else, invalid ones are rejected. */
  registration: unknown;
  /** The time source for every deadline, budget, retry and timestamp (default: the system clock). */
  clock?: Clock;
  /** Environment for `tokenEnv` and the minimal child environment; the library never reads `process.env`. */
  env?: Record<string, string | undefined>;
  /** `tokenRef` -> provider; caller-owned, never closed. */
  tokenProviders?: Record<string, TokenProvider>;
  /** Backend id -> transport to use instead of building one; caller-owned, `close()` leaves them open. */
  transports?: Record<string, BackendTransport>;
  /** Retries after an operational failure, inside the original deadline (default 0). */
  retries?: number;
  /** Pause before each retry (default 0). */
  retryBackoffMs?: number;
  /** SIGTERM -> SIGKILL bound when reaping spawned backends (default 2000). */
  killGraceMs?: number;
  /** Bound on each owned observation after settlement (default 1000). */
  observerBoundMs?: number;
  /** `event.source`: an absolute URI naming this harness install, with no credentials. */
  source?: string;
  /** Effects advertised at `tool.before` (default `['deny']`; `deny` is required). */
  advertisedEffects?: readonly SupportedEffect[];
  /** How each attachment upload POST is sent (default: over HTTP or HTTPS); caller-owned. */
  uploadSender?: UploadSender;
}

/** Options with every default applied, checked once. */
export interface ResolvedOptions {
  registration: Registration;
  clock: Clock;
  env: Record<string, string | undefined>;
  tokenProviders: Record<string, TokenProvider>;
  injected: Map<string, BackendTransport>;
  retries: number;
  retryBackoffMs: number;
  killGraceMs: number;
  observerBoundMs: number;
  source: string;
  advertisedEffects: readonly SupportedEffect[];
  uploadSender: UploadSender;
}

const DEFAULT_KILL_GRACE_MS = 2000;

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}
function isDuration(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0;
}

/**
 * Validates the registration and the options, reporting every problem at once. Throws a
 * `HarnessConfigError`; invalid or ambiguous interceptor configuration is never skipped.
 */
export function resolveOptions(options: HarnessOptions): ResolvedOptions {
  const reg = validateRegistration(options.registration);
  if (!reg.ok) {
    throw new HarnessConfigError(
      'registration-invalid',
      `The registration is invalid (${reg.violations.length} problem(s)); fix it before creating the harness.`,
      reg.violations,
    );
  }
  const unsupported = unsupportedByHost(reg.registration);
  if (unsupported.length > 0) {
    throw new HarnessConfigError(
      'registration-unsupported',
      `The registration asks for what this harness cannot serve (${unsupported.length} problem(s)); change it before creating the harness.`,
      unsupported,
    );
  }
  const problems: Violation[] = [];
  const bad = (path: string, message: string, requirement = 'AHPX-HARNESS-OPTIONS') =>
    problems.push({ path, message, requirement });
  if (options.retries !== undefined && !isCount(options.retries))
    bad('$.retries', 'retries must be a non-negative integer');
  for (const key of ['retryBackoffMs', 'killGraceMs'] as const) {
    if (options[key] !== undefined && !isDuration(options[key]))
      bad(`$.${key}`, `${key} must be a non-negative number`);
  }
  if (
    options.observerBoundMs !== undefined &&
    !(isDuration(options.observerBoundMs) && options.observerBoundMs > 0)
  ) {
    bad('$.observerBoundMs', 'observerBoundMs must be a positive number');
  }
  const source = options.source ?? `urn:uuid:${randomUUID()}`;
  if (!isAbsoluteUri(source) || hasCredentials(source)) {
    bad('$.source', 'source must be an absolute URI that carries no credentials');
  }
  const advertisedEffects = options.advertisedEffects ?? DEFAULT_ADVERTISED_EFFECTS;
  problems.push(...checkAdvertisedEffects(advertisedEffects));
  const ids = new Set(reg.registration.hooks.map((h: BackendRegistration) => h.id));
  const injected = new Map(Object.entries(options.transports ?? {}));
  for (const id of injected.keys()) {
    if (!ids.has(id)) bad(`$.transports[${JSON.stringify(id)}]`, `no backend "${id}" in the registration`);
  }
  if (problems.length > 0) {
    throw new HarnessConfigError(
      'options-invalid',
      'The harness options are invalid; see the violations.',
      problems,
    );
  }
  return {
    registration: reg.registration,
    clock: options.clock ?? systemClock,
    env: options.env ?? {},
    tokenProviders: options.tokenProviders ?? {},
    injected,
    retries: options.retries ?? 0,
    retryBackoffMs: options.retryBackoffMs ?? 0,
    killGraceMs: options.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
    observerBoundMs: options.observerBoundMs ?? DEFAULT_OBSERVER_BOUND_MS,
    source,
    advertisedEffects,
    uploadSender: options.uploadSender ?? sendUploadOverHttp,
  };
}

function hasCredentials(uri: string): boolean {
  try {
    const url = new URL(uri);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
}
