import type { FailureClass } from '../protocol/failure-classes.js';
import type { JsonValue } from '../protocol/json.js';

/**
 * The contract between the harness core and a backend transport. A transport moves bytes and
 * reports transport-level failures; the core owns JSON-RPC envelope checks, id matching, result
 * validation, policies, retries and audit.
 */
export interface SendContext {
  /**
   * Aborted on the subscription deadline, a cancellation, budget expiry or close. On the
   * harness's own contexts it is a getter made on first read: a wrapper that copies a context
   * copies it by name (`{ ...ctx, signal: ctx.signal }`), since a spread does not copy getters.
   */
  readonly signal: AbortSignal;
  /** Called (at most once per request) when a reply arrives after `signal` aborted while still listening. */
  onLateReply?: (raw: Uint8Array) => void;
  /**
   * Called for every frame the transport writes or reads, for the transcript; `text`, when
   * given, is the exact UTF-8 decoding of `raw` that the transport already has.
   */
  onFrame?: (direction: 'out' | 'in', raw: Uint8Array, text?: string) => void;
  /**
   * Called instead of `onFrame` for a stdout line the transport reads past as noise (only when
   * its owner gave a stdio transport an `isNoise` rule; the harness gives none).
   */
  onNoise?: (raw: Uint8Array) => void;
}

/** A transport-level failure: its class, a stable code, and a detail for local diagnostics only. */
export interface TransportFailure {
  failureClass: FailureClass;
  /** Stable machine code, e.g. `stdio.exit-nonzero`, `http.redirect`, `auth.env-missing`. */
  code: string;
  /** For local audit only; may hold backend bytes or addresses, so never shown to the model. */
  detail: string;
}

export type TransportReply =
  | { ok: true; message: JsonValue; raw: Uint8Array }
  | { ok: false; failure: TransportFailure; raw?: Uint8Array };

export type NotifyOutcome = { ok: true } | { ok: false; failure: TransportFailure };

/** The backend transport kinds the reference harness builds from a registration. */
export type TransportKind = 'stdio-persistent' | 'stdio-per_event' | 'http' | 'injected';

export interface BackendTransport {
  readonly kind: TransportKind;
  /**
   * Sends one request frame (serialized JSON, no trailing newline) and waits for its single
   * reply. Resolves with a failure value, never rejects, including when `ctx.signal` aborts
   * (then the failure class is `deadline-exceeded` and the core reclassifies by abort reason).
   */
  request(frame: string, ctx: SendContext): Promise<TransportReply>;
  /** Delivers one notification frame; waits for no reply beyond the transport acknowledgement. */
  notify(frame: string, ctx: SendContext): Promise<NotifyOutcome>;
  /** Releases everything the transport owns (reaping processes); safe to call twice. */
  close(): Promise<void>;
  /** PIDs of processes this transport spawned that have not been seen to exit. */
  livePids(): number[];
}

/** Supplies bearer tokens; injected by the caller and never closed by the harness. */
export interface TokenProvider {
  /** Resolves a token or rejects; must honour `signal`. `refresh` asks for a new token after a 401. */
  getToken(request: { signal: AbortSignal; refresh: boolean }): Promise<string>;
}
