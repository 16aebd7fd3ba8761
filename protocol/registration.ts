import {
  EVENT_FAMILIES,
  INTERCEPTABLE_EVENTS,
  eventMatches,
  isEventWildcard,
  isKnownEvent,
  isObservationOnlyEvent,
  isReverseDns,
} from './events.js';
import type { UploadConfig } from './content-upload.js';
import type { FailurePolicy } from './failure-classes.js';
import { childPath, isJsonObject, type JsonObject, type JsonValue, type Violation } from './json.js';
import { Findings } from './registration-findings.js';
import { validateAuthentication, validateTransport } from './registration-backend.js';
import { validateContentSelection, validateSubscriptionExtras } from './registration-subscription.js';

export type { FailurePolicy } from './failure-classes.js';

/** A validated registration document (§3). */
export interface Registration {
  protocolVersion: 'draft';
  hooks: BackendRegistration[];
}
/** One backend entry of `hooks[]`. */
export interface BackendRegistration {
  id: string;
  transport: StdioTransportConfig | HttpTransportConfig;
  authentication?: BearerAuth | OAuthAuth;
  subscriptions: Subscription[];
}
/** A stdio backend; `args` defaults to `[]`. */
export interface StdioTransportConfig {
  type: 'stdio';
  command: string;
  args: string[];
  lifecycle: 'persistent' | 'per_event';
  cwd?: string;
}
/** An HTTP backend at an absolute http(s) URL. */
export interface HttpTransportConfig {
  type: 'http';
  url: string;
}
/** Bearer auth: the token comes from an env var or a ref, never a literal. */
export type BearerAuth = { type: 'bearer'; tokenEnv: string } | { type: 'bearer'; tokenRef: string };
/** OAuth binding. */
export interface OAuthAuth {
  type: 'oauth';
  issuer: string;
  resource: string;
  clientId: string;
  flow: 'authorization_code_pkce' | 'client_credentials';
  scopes?: string[];
  clientSecretRef?: string;
}
/** Content selection: a required default plus optional per-category values. */
export type ContentSelection = {
  default: 'body' | 'metadata' | 'omit';
  [category: string]: 'body' | 'metadata' | 'omit';
};
/** An intercept subscription: explicit policy and deadline, no defaults. */
export interface InterceptSubscription {
  mode: 'intercept';
  events: string[];
  timeoutMs: number;
  failurePolicy: FailurePolicy;
  content: ContentSelection;
  id?: string;
  includeNative?: boolean;
  /** Where body-selected attachments are uploaded (content-upload.md). */
  upload?: UploadConfig;
  /** Who owns the subscription; `managed` ones are mandatory policy (capability-auth.md). */
  scope?: SubscriptionScope;
  disableable?: boolean;
}
/** An observe subscription: never a policy or a deadline. */
export interface ObserveSubscription {
  mode: 'observe';
  events: string[];
  content: ContentSelection;
  id?: string;
  includeNative?: boolean;
  upload?: UploadConfig;
  scope?: SubscriptionScope;
  disableable?: boolean;
}
export type Subscription = InterceptSubscription | ObserveSubscription;
/** The owner of a subscription's configuration. */
export type SubscriptionScope = 'managed' | 'project' | 'user';

/** The result of validating a registration: the typed document with warnings, or every violation. */
export type RegistrationCheck =
  { ok: true; registration: Registration; warnings: Violation[] } | { ok: false; violations: Violation[] };

const DOC_KEYS = new Set(['protocolVersion', 'hooks', '$schema']);
const BACKEND_KEYS = new Set(['id', 'transport', 'authentication', 'subscriptions']);
const SUB_KEYS = new Set([
  'events',
  'mode',
  'timeoutMs',
  'failurePolicy',
  'content',
  'includeNative',
  'upload',
  'filters',
  'scope',
  'disableable',
  'id',
]);

/**
 * Validates a registration document (AHP-REG-001 and the rules of §3) and reports every
 * violation at once. Unknown fields are tolerated and returned as warnings; `contentReceiver`
 * is forbidden outright.
 */
export function validateRegistration(doc: unknown): RegistrationCheck {
  const f = new Findings();
  if (!isJsonObject(doc)) {
    f.add('$', 'a registration document must be a JSON object');
    return { ok: false, violations: f.violations };
  }
  const d = doc as JsonObject;
  if (d.protocolVersion !== 'draft') f.add('$.protocolVersion', 'protocolVersion must be "draft"');
  f.unknownKeys(d, DOC_KEYS, '$');
  const hooks = d.hooks;
  if (!Array.isArray(hooks) || hooks.length === 0) {
    f.add('$.hooks', 'hooks must be a non-empty ordered array');
  } else {
    const seen = new Map<string, number>();
    hooks.forEach((h, i) => validateBackend(h, childPath('$.hooks', i), f, seen));
  }
  if (f.violations.length > 0) return { ok: false, violations: f.violations };
  return { ok: true, registration: normalize(d), warnings: f.warnings };
}

function validateBackend(value: JsonValue, path: string, f: Findings, seen: Map<string, number>): void {
  if (!isJsonObject(value)) return f.add(path, 'a backend entry must be an object');
  f.unknownKeys(value, new Set([...BACKEND_KEYS, 'contentReceiver']), path);
  if ('contentReceiver' in value)
    f.add(childPath(path, 'contentReceiver'), 'contentReceiver is forbidden (no alias exists)');
  const id = value.id;
  if (typeof id !== 'string' || !isReverseDns(id))
    f.add(childPath(path, 'id'), 'backend id must be a reverse-DNS name');
  else if (seen.has(id))
    f.add(childPath(path, 'id'), `backend id "${id}" is already used by hooks[${seen.get(id)}]`);
  else seen.set(id, seen.size);
  validateTransport(value.transport, childPath(path, 'transport'), f);
  if ('authentication' in value) {
    const transportType = isJsonObject(value.transport) ? value.transport.type : undefined;
    validateAuthentication(
      value.authentication as JsonValue,
      childPath(path, 'authentication'),
      transportType,
      f,
    );
  }
  const subs = value.subscriptions;
  const subsPath = childPath(path, 'subscriptions');
  if (!Array.isArray(subs) || subs.length === 0) f.add(subsPath, 'subscriptions must be a non-empty array');
  else subs.forEach((s, i) => validateSubscription(s, childPath(subsPath, i), f));
}

function validateSubscription(value: JsonValue, path: string, f: Findings): void {
  if (!isJsonObject(value)) return f.add(path, 'a subscription must be an object');
  f.unknownKeys(value, SUB_KEYS, path);
  const mode = value.mode;
  if (mode !== 'intercept' && mode !== 'observe')
    f.add(childPath(path, 'mode'), 'mode must be intercept or observe');
  validateEvents(value.events, childPath(path, 'events'), mode, f);
  if (mode === 'intercept') {
    const policy = value.failurePolicy;
    if (!('failurePolicy' in value)) {
      f.add(
        childPath(path, 'failurePolicy'),
        'an intercept subscription must set failurePolicy explicitly (no default)',
        'AHP-FAIL-001',
      );
    } else if (policy !== 'fail-open' && policy !== 'fail-closed') {
      f.add(
        childPath(path, 'failurePolicy'),
        'failurePolicy must be fail-open or fail-closed',
        'AHP-FAIL-001',
      );
    }
    const t = value.timeoutMs;
    if (typeof t !== 'number' || !Number.isSafeInteger(t) || t < 1) {
      f.add(
        childPath(path, 'timeoutMs'),
        'an intercept subscription needs timeoutMs, a positive integer',
        'AHP-FAIL-002',
      );
    } else if (t < 100 || t > 30_000) {
      // Valid, but outside the range every harness should support: it may be refused or clamped.
      f.warn(
        childPath(path, 'timeoutMs'),
        'timeoutMs outside 100..30000 may not be supported',
        'AHPX-DL-003',
      );
    }
  } else if (mode === 'observe') {
    for (const key of ['failurePolicy', 'timeoutMs'] as const) {
      if (key in value)
        f.add(childPath(path, key), `an observe subscription must not specify ${key}`, 'AHP-FAIL-001');
    }
  }
  if (!('content' in value))
    f.add(childPath(path, 'content'), 'content selection is required', 'AHP-CONTENT-002');
  else validateContentSelection(value.content as JsonValue, childPath(path, 'content'), f);
  validateSubscriptionExtras(value, path, f);
}

function validateEvents(
  value: JsonValue | undefined,
  path: string,
  mode: JsonValue | undefined,
  f: Findings,
): void {
  const REG2 = 'AHP-REG-002';
  if (!Array.isArray(value) || value.length === 0)
    return f.add(path, 'events must be a non-empty array', REG2);
  const seen = new Set<string>();
  value.forEach((e, i) => {
    const p = childPath(path, i);
    if (typeof e !== 'string') return f.add(p, 'an event selector must be a string', REG2);
    if (seen.has(e)) f.add(p, `event selector "${e}" is listed twice`, REG2);
    seen.add(e);
    if (isEventWildcard(e)) {
      const family = e.slice(0, -2);
      if (e !== '*' && !EVENT_FAMILIES.includes(family)) {
        f.warn(p, `no known event is in family "${family}"`, REG2);
      } else if (mode === 'intercept' && !INTERCEPTABLE_EVENTS.some((t) => eventMatches(e, t))) {
        // Intercept wildcards expand only to interceptable boundaries, so this one selects nothing.
        f.warn(p, `"${e}" matches no interceptable event`, REG2);
      }
      return;
    }
    if (!isKnownEvent(e)) return f.add(p, `"${e}" is neither a known event nor "family.*" or "*"`, REG2);
    if (mode === 'intercept' && isObservationOnlyEvent(e)) {
      f.add(p, `${e} is observation-only; it cannot be intercepted`, REG2);
    }
  });
}

function normalize(d: JsonObject): Registration {
  const hooks = (d.hooks as JsonObject[]).map((h): BackendRegistration => {
    const t = h.transport as JsonObject;
    const transport: StdioTransportConfig | HttpTransportConfig =
      t.type === 'stdio'
        ? {
            type: 'stdio',
            command: t.command as string,
            args: (t.args as string[] | undefined) ?? [],
            lifecycle: t.lifecycle as 'persistent' | 'per_event',
            ...(typeof t.cwd === 'string' ? { cwd: t.cwd } : {}),
          }
        : { type: 'http', url: t.url as string };
    const subscriptions = (h.subscriptions as JsonObject[]).map(normalizeSubscription);
    const out: BackendRegistration = { id: h.id as string, transport, subscriptions };
    if (isJsonObject(h.authentication))
      out.authentication = h.authentication as unknown as BearerAuth | OAuthAuth;
    return out;
  });
  return { protocolVersion: 'draft', hooks };
}

function normalizeSubscription(s: JsonObject): Subscription {
  const common = {
    events: s.events as string[],
    content: s.content as ContentSelection,
    ...(typeof s.id === 'string' ? { id: s.id } : {}),
    ...(typeof s.includeNative === 'boolean' ? { includeNative: s.includeNative } : {}),
    ...(isJsonObject(s.upload) ? { upload: s.upload as unknown as UploadConfig } : {}),
    ...(typeof s.scope === 'string' ? { scope: s.scope as SubscriptionScope } : {}),
    ...(typeof s.disableable === 'boolean' ? { disableable: s.disableable } : {}),
  };
  if (s.mode === 'intercept') {
    return {
      mode: 'intercept',
      ...common,
      timeoutMs: s.timeoutMs as number,
      failurePolicy: s.failurePolicy as FailurePolicy,
    };
  }
  return { mode: 'observe', ...common };
}
