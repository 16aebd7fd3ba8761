/**
 * The mock backend's data model: scenarios (ordered rules of match + behaviour), the
 * transport-neutral actions the pure engine emits, the engine state and the recording entries.
 * Everything here is plain JSON-serializable data (bytes in actions excepted): a failing plan must
 * print as JSON and replay, and a third-party harness drives the mock as its own process.
 *
 * What each action means per transport (shells carry actions out; `afterMs` is an offset from the
 * inbound frame's arrival, scheduled with the injected Clock; equal offsets run in list order):
 *
 * | action   | stdio process                              | HTTP server                                  | msw handler                                   |
 * | -------- | ------------------------------------------ | -------------------------------------------- | --------------------------------------------- |
 * | `head`   | never emitted                              | set status + headers (sent with first write) | the Response's status + headers               |
 * | `write`  | write the bytes to stdout as given         | write the bytes to the response body         | enqueue the bytes on the body stream          |
 * | `end`    | this exchange is done (per_event may exit) | end the response                             | close the body stream                         |
 * | `hang`   | never finish (per_event never exits)       | keep the socket open, never end              | never resolve / never close the stream        |
 * | `reset`  | end (close) stdout, process stays alive    | destroy the socket (mid-response if written) | network error (`Response.error()` / stream error) |
 * | `exit`   | exit with the code after earlier writes    | never emitted (see inapplicable below)       | never emitted                                 |
 * | `signal` | kill itself with the signal                | never emitted                                | never emitted                                 |
 * | `log`    | one diagnostic line on stderr              | the shell's diagnostic log (optional)        | the shell's diagnostic log (optional)         |
 *
 * A behaviour that does not apply to the transport (see BEHAVIOUR_TRANSPORTS) is recorded as a
 * `behaviour-not-applicable` violation and answered with: stdio, a `log` line and no stdout output;
 * HTTP/msw, status 501 with a text/plain body naming the behaviour.
 */
import type { JsonObject, JsonValue } from '../protocol/json.js';
import type { JsonRpcId } from '../protocol/wire-types.js';

/** Exact bytes as JSON: UTF-8 text when the bytes are valid UTF-8, base64 otherwise (or by choice). */
export type Bytes = { text: string } | { base64: string };

/**
 * A raw chunk of a `raw` behaviour: exact bytes (no newline added) at an optional offset. In a
 * `text` chunk, `{{request.id}}` becomes the id of the request answered, JSON-encoded
 * (REQUEST_ID_TEMPLATE, engine-behaviours.ts).
 */
export type RawChunk = Bytes & { afterMs?: number };

/** A transport the engine serves. */
export type Transport = 'stdio' | 'http' | 'msw';

/** Monotonic and wall-clock milliseconds of one moment (from the injected Clock). */
export interface Instant {
  monotonic: number;
  wall: number;
}

/** A predicate on one event field, addressed by a dotted path under `params.event` (e.g. `tool.input.command`). */
export type FieldPredicate =
  | { path: string; equals: JsonValue }
  /** A string field containing the substring, or an array field holding an element deep-equal to the value. */
  | { path: string; contains: JsonValue };

/** A number or an inclusive range, for attempt and delivery numbers (both 1-based). */
export type NumberMatch = number | { min?: number; max?: number };

/** What a rule applies to; every given field must hold. An empty match matches every request. */
export interface Match {
  /** Default `request`: a rule never answers a notification unless it asks for one. */
  message?: 'request' | 'notification' | 'any';
  method?: string;
  /** `params.event.type`. */
  eventType?: string;
  /** `params.event.tool.name`. */
  toolName?: string;
  /** All predicates must hold. */
  fields?: FieldPredicate[];
  /**
   * The frame identifies as one of these values: its JSON-RPC id, `event.id`, `event.call.id` or
   * `event.tool.callId` (the place revision "0.1" kept the call id) equals any of them. One rule
   * then answers a call whichever of its identity fields the harness filled in, and wherever it
   * put the call id.
   */
  identity?: string[];
  /** Attempt number of this event id: 1 for the first delivery of `params.event.id` with this method, 2 for the first retry... */
  attempt?: NumberMatch;
  /** Delivery index: 1 for the first inbound frame the mock saw (all transports, since the last reset). */
  delivery?: NumberMatch;
  transport?: Transport;
}

/** Optional `effects` of a reply: any JSON, so unknown, malformed and conflicting effects are expressible. Default `[]`. */
export interface EffectsOption {
  effects?: JsonValue;
}

/** One behaviour: a JSON value interpreted by the engine. */
export type Behaviour =
  // Replies on the well-formed path (the reply id mirrors the request id; `null` for a notification).
  /** A success `{protocolVersion, effects}`; `protocolVersion` defaults to the request's; `omit` drops fields. */
  | (EffectsOption & {
      kind: 'respond';
      protocolVersion?: string;
      omit?: Array<'protocolVersion' | 'effects'>;
      extensions?: JsonObject;
    })
  /** A success with exactly one deny effect. */
  | { kind: 'deny'; reason?: string; code?: string }
  /** A JSON-RPC error with any code (e.g. -32001 with `data.supported`, -32002, -32003, -32004). */
  | { kind: 'rpc-error'; code: number; message?: string; data?: JsonValue }
  /** A success `[]` whose id is not the request's. */
  | { kind: 'mismatched-id'; id: JsonRpcId }
  /** Valid JSON that is not a JSON-RPC response. */
  | { kind: 'not-jsonrpc'; variant: 'no-jsonrpc' | 'result-and-error' | 'batch' | 'wrong-jsonrpc' | 'no-id' }
  /** Text that is not JSON (default: a reply cut off mid-object); one frame. */
  | { kind: 'malformed-json'; text?: string }
  /** A reply holding an invalid UTF-8 sequence; `split` cuts a multi-byte sequence across two writes. */
  | { kind: 'malformed-utf8'; split?: boolean; splitDelayMs?: number }
  /** Exact bytes, no framing added: the escape hatch (`{{request.id}}` in text: the request's id). */
  | { kind: 'raw'; chunks: RawChunk[] }
  /** A reply pretty-printed over several lines (stdio: a multi-line frame; HTTP: a valid JSON body). */
  | (EffectsOption & { kind: 'pretty'; indent?: number })
  /** The reply in chunks of `chunkBytes`, one every `intervalMs` (HTTP: a slow body). */
  | (EffectsOption & { kind: 'slow-body'; chunkBytes: number; intervalMs: number })
  /** Ends the stream: stdio closes stdout, HTTP destroys the socket, msw a network error; after `afterBytes` of the `[]` reply. */
  | { kind: 'reset'; afterBytes?: number }
  // Time and choice.
  /** `then` with every action `ms` later (a late reply is a delayed reply). */
  | { kind: 'delay'; ms: number; then: Behaviour }
  /** Never reply; keep the process or connection open. */
  | { kind: 'hang' }
  /** No reply; the exchange ends (stdio: nothing written; HTTP: 202 with no body). Default for notifications. */
  | { kind: 'silent' }
  /** `steps[n-1]` for attempt n of the event id; past the list, `then` if given, else the last step again. */
  | { kind: 'sequence'; steps: Behaviour[]; then?: Behaviour }
  /** `behaviour` with probability `p`, else `otherwise`; drawn from the scenario's seeded PRNG. */
  | { kind: 'probability'; p: number; behaviour: Behaviour; otherwise: Behaviour }
  // stdio only.
  /** The same reply written twice. */
  | (EffectsOption & { kind: 'twice' })
  /** Exit with `code`; after `reply` when given (exit after replying), else before any reply. */
  | { kind: 'exit'; code: number; reply?: Behaviour }
  /** Die by `signal`; after `reply` when given. */
  | { kind: 'signal'; signal: KillSignal; reply?: Behaviour }
  // HTTP only.
  /** Any status, with or without a body. */
  | {
      kind: 'http-status';
      status: number;
      body?: Bytes;
      contentType?: string;
      headers?: Record<string, string>;
    }
  /** A redirect (never to be followed by a harness). Default status 307. */
  | { kind: 'http-redirect'; location: string; status?: 301 | 302 | 303 | 307 | 308 }
  /** 401 with a `WWW-Authenticate` challenge (default `Bearer realm="ahp-mock"`). */
  | { kind: 'http-unauthorized'; challenge?: string }
  /** A well-formed reply body under a non-JSON media type (default `text/plain`). */
  | (EffectsOption & { kind: 'wrong-content-type'; contentType?: string })
  /**
   * An upload endpoint's receipt: `201` with JSON `{ref, size, sha256}` of the bytes received
   * (content-upload.md). Each member may be scripted to say something else (a wrong digest or
   * size, a fixed ref) and `status` to answer another code with the same body.
   */
  | { kind: 'upload-receipt'; ref?: string; size?: number; sha256?: string; status?: number };

export type BehaviourKind = Behaviour['kind'];

/** Signals a stdio mock may die by. */
export type KillSignal = 'SIGKILL' | 'SIGTERM' | 'SIGSEGV' | 'SIGABRT' | 'SIGINT' | 'SIGHUP';

/** Which transports each behaviour applies to; anything else is answered as "not applicable". */
export const BEHAVIOUR_TRANSPORTS: Readonly<Record<BehaviourKind, readonly Transport[]>> = {
  respond: ['stdio', 'http', 'msw'],
  deny: ['stdio', 'http', 'msw'],
  'rpc-error': ['stdio', 'http', 'msw'],
  'mismatched-id': ['stdio', 'http', 'msw'],
  'not-jsonrpc': ['stdio', 'http', 'msw'],
  'malformed-json': ['stdio', 'http', 'msw'],
  'malformed-utf8': ['stdio', 'http', 'msw'],
  raw: ['stdio', 'http', 'msw'],
  pretty: ['stdio', 'http', 'msw'],
  'slow-body': ['stdio', 'http', 'msw'],
  reset: ['stdio', 'http', 'msw'],
  delay: ['stdio', 'http', 'msw'],
  hang: ['stdio', 'http', 'msw'],
  silent: ['stdio', 'http', 'msw'],
  sequence: ['stdio', 'http', 'msw'],
  probability: ['stdio', 'http', 'msw'],
  twice: ['stdio'],
  exit: ['stdio'],
  signal: ['stdio'],
  'http-status': ['http', 'msw'],
  'http-redirect': ['http', 'msw'],
  'http-unauthorized': ['http', 'msw'],
  'wrong-content-type': ['http', 'msw'],
  'upload-receipt': ['http', 'msw'],
};

/** One rule: the first rule (in order) whose match holds and whose `times` is not used up decides. */
export interface Rule {
  /** A label for recordings and error messages. */
  name?: string;
  match?: Match;
  behaviour: Behaviour;
  /** How many times the rule may fire; unlimited when absent. */
  times?: number;
}

/** Process-level settings of the stdio mock (ignored by HTTP and msw). */
export interface ProcessSettings {
  /** A line written to stdout at start, before any frame (newline added). */
  banner?: string;
  /** Exit at start with this code, after `message` on stderr, before reading stdin. */
  refuseToStart?: { exitCode: number; message?: string };
  /** Keep running on SIGTERM, so that only SIGKILL ends the process. */
  ignoreSigterm?: boolean;
}

/** HTTP-level settings (ignored by stdio). */
export interface HttpSettings {
  /** Every request must carry `Authorization: Bearer <token>`; missing or wrong gets 401 with the challenge. */
  requireBearer?: { token: string; challenge?: string };
}

/** A scenario: ordered rules plus the strategies for what no rule covers. */
export interface Scenario {
  name?: string;
  description?: string;
  /** Seed of the PRNG behind `probability` (default 0). */
  seed?: number;
  rules: Rule[];
  /** For a request no rule matched (default: `{kind: "respond"}`, i.e. `[]`); recorded as unplanned. */
  unmatched?: Behaviour;
  /** For a notification no rule matched (default: `{kind: "silent"}`). */
  notifications?: Behaviour;
  /** For a frame that is not UTF-8 / JSON / a JSON-RPC request (default: error -32700 or -32600, id null). */
  unparseable?: Behaviour;
  process?: ProcessSettings;
  http?: HttpSettings;
  /**
   * Makes the mock an upload endpoint (content-upload.md): every HTTP request is an upload, no
   * rule is consulted, its framing is checked (a fault is recorded as an `upload-framing`
   * violation and answered 400), and a well-framed one gets `answer`.
   */
  upload?: { answer: Behaviour };
}

/** HTTP request metadata of an inbound frame (header names lower-cased). */
export interface HttpMeta {
  method: string;
  path: string;
  headers: Record<string, string>;
}

/**
 * A framing fault a shell saw before the engine: `too-large`, a frame past the size cap (its bytes
 * are not kept); `unterminated`, a last stdio line the stream ended without its newline.
 */
export type FramingFault = 'too-large' | 'unterminated';

/** One inbound frame handed to the engine by a shell (stdio: one line without its LF; HTTP: one body). */
export interface InboundFrame {
  bytes: Uint8Array;
  transport: Transport;
  /** Connection id (HTTP/msw) or process id (stdio) as a string. */
  connectionId: string;
  at: Instant;
  http?: HttpMeta;
  /** Set when the shell could not frame the bytes as the protocol requires. */
  fault?: FramingFault;
}

/** What a shell carries out; see the table at the top of this file. */
export type Action =
  | { type: 'head'; afterMs: number; status: number; headers: Record<string, string> }
  | { type: 'write'; afterMs: number; bytes: Uint8Array }
  | { type: 'end'; afterMs: number }
  | { type: 'hang'; afterMs: number }
  | { type: 'reset'; afterMs: number }
  | { type: 'exit'; afterMs: number; code: number }
  | { type: 'signal'; afterMs: number; signal: KillSignal }
  | { type: 'log'; afterMs: number; text: string };

/** An action as recorded: bytes encoded as JSON. */
export type RecordedAction =
  Exclude<Action, { type: 'write' }> | { type: 'write'; afterMs: number; bytes: Bytes };

/**
 * Engine state between frames: plain data (`structuredClone` copies it, JSON prints it). A step
 * never changes the state it is given; it returns the next one, sharing what did not change.
 */
export interface EngineState {
  /** Inbound frames seen so far. */
  deliveries: number;
  /** Deliveries seen per method and event id (see attempt-counts.ts). */
  attempts: AttemptCounts;
  /** Times each rule fired, by rule index. */
  fired: number[];
  /** PRNG state (uint32) for `probability`. */
  prng: number;
}

/**
 * Attempt numbers per method and event id, as a persistent hash trie: a node is an array of
 * `ATTEMPT_NODE_WIDTH` slots, a slot empty (null), one entry, or a node one level down (at the
 * last level, where two keys can share every hash bit, an array of entries instead).
 */
export type AttemptCounts = readonly AttemptSlot[];

export type AttemptSlot = null | AttemptEntry | readonly AttemptSlot[];

/** How many deliveries of one event id came with one method. */
export interface AttemptEntry {
  readonly method: string;
  readonly eventId: string;
  /** The key's hash, kept so that a split moves the entry down without hashing it again. */
  readonly hash: number;
  readonly count: number;
}

/** How an inbound frame was understood. */
export type InboundKind = 'request' | 'notification' | 'unparseable';

/** One inbound frame with its exact bytes and how it was classified and answered. */
export interface InboundRecord {
  type: 'inbound';
  delivery: number;
  transport: Transport;
  connectionId: string;
  at: Instant;
  bytes: Bytes;
  http?: HttpMeta;
  kind: InboundKind;
  method?: string;
  id?: string | number;
  eventId?: string;
  eventType?: string;
  toolName?: string;
  /** Attempt number of this event id for this method (1 for frames without an event id). */
  attempt: number;
  /** Index of the rule that decided, or null when a default strategy did. */
  rule: number | null;
  /** True when a rule (or a scenario-level HTTP setting such as `requireBearer`) decided; false for the default strategies. */
  planned: boolean;
  /** The behaviour carried out, with sequence and probability choices made (delays and exit replies kept). */
  behaviour: Behaviour;
}

/** Every action the engine planned for a frame (delivery 0: at process start). */
export interface OutboundRecord {
  type: 'outbound';
  delivery: number;
  transport: Transport;
  connectionId: string;
  action: RecordedAction;
  /**
   * When the shell carried the action out: the instant it began (a write: when it called the
   * stream's write with the bytes), on the clock of the inbound `at`. Absent while the action is
   * still due, and when it never ran (the peer went away first, or an earlier action ended the
   * process). A stdio process stepping on a control server reports it with its next frame's step
   * or its exit report, so it reaches the recording then.
   */
  performedAt?: Instant;
}

/** Stable codes of violations the mock records. */
export type ViolationCode =
  | 'invalid-utf8'
  | 'not-json'
  | 'empty-frame'
  /** A frame past the size cap; its bytes were dropped. */
  | 'frame-too-large'
  /** A stdio line without its terminating newline (the stream ended inside it). */
  | 'unterminated-frame'
  | 'invalid-envelope'
  | 'id-mismatch'
  | 'notification-with-id'
  | 'http-method'
  | 'http-content-type'
  | 'auth-missing'
  | 'auth-wrong'
  | 'behaviour-not-applicable'
  /** An upload (scenario `upload`) framed other than content-upload.md requires. */
  | 'upload-framing'
  /** A safety net: the engine failed on a frame (a hand-built scenario that bypassed the parser). */
  | 'engine-error';

/** Something the mock could not accept as sent, or could not carry out as scripted. */
export interface ViolationRecord {
  type: 'violation';
  delivery: number;
  transport: Transport;
  connectionId: string;
  code: ViolationCode;
  message: string;
  /** JSON path in the inbound frame, when there is one. */
  path?: string;
}

export type RecordEntry = InboundRecord | OutboundRecord | ViolationRecord;
