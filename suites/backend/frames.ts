/**
 * The frames the backend suites send, built from small data specs. Every request gets fresh
 * identities (an HTTP backend is shared by all cases of a run, so IDs are unique per run), except
 * a `repeat`, which re-sends the exact bytes of an earlier frame (AHP-CORE-004).
 */
import { randomUUID } from 'node:crypto';
import type { JsonObject } from '../../protocol/json.js';
import { INTERCEPT_METHOD, OBSERVE_METHOD, PROTOCOL_VERSION } from '../../protocol/wire-types.js';

/**
 * Where an unknown field is added to an otherwise valid request (AHP-CORE-003): only objects the
 * draft schemas leave open. `tool` and `call` are closed (`additionalProperties: false`), so a
 * field added there makes the request invalid and a backend may refuse it.
 */
export type UnknownFieldSite = 'params' | 'event' | 'session' | 'capabilities';

/** Every open object an unknown field is added to, in the order the cases name them. */
export const UNKNOWN_FIELD_SITES: readonly UnknownFieldSite[] = [
  'params',
  'event',
  'session',
  'capabilities',
];

/** One frame to send, as data. */
export type FrameSpec =
  | {
      send: 'intercept';
      /**
       * `allow`: the vendor's `--allow-input` (default `DEFAULT_ALLOW_INPUT`); `deny`: the vendor's
       * `--deny-input`; both advertise only deny. `modify`: the vendor's `--modify-input`, advertising
       * every effect tool.before can take (`MODIFY_PATH_CAPABILITIES`).
       */
      input: 'allow' | 'deny' | 'modify';
      /** Adds an unknown field at each of these places. */
      unknownFieldsAt?: readonly UnknownFieldSite[];
      /** Overrides `params.protocolVersion` (an unsupported version). */
      protocolVersion?: string;
      /** Overrides `event.type` (an event the backend cannot handle). */
      eventType?: string;
      /**
       * Takes the params, or the event out of them (a request the backend cannot process), or
       * the tool, or the tool's input, out of the event (one a lenient backend may still decide).
       */
      flaw?: RequestFlaw | ToolFlaw;
    }
  /** A request with a method AHP does not define. */
  | { send: 'method'; method: string }
  /** The exact bytes of an earlier step's frame (a duplicate delivery). */
  | { send: 'repeat'; of: number }
  /** A line that is not JSON (`UNPARSABLE_TEXT`): a request cut off before its end. */
  | { send: 'unparsable' }
  /** A line that is JSON but not a JSON-RPC Request object (`INVALID_REQUEST_TEXTS`). */
  | { send: 'invalid-request'; shape: NotARequest }
  /**
   * A `hooks/observe` notification (no id: it gets no reply), or, with `flaw`, a notification
   * the backend cannot process, which gets no reply either.
   */
  | { send: 'observe'; flaw?: NotificationFlaw };

/**
 * What makes a notification one the backend cannot process: a method AHP does not define, an
 * event type no revision defines, a protocol version it does not support, params without an event,
 * or the request method `hooks/intercept` sent without an id (a plain tool.before otherwise: a
 * backend that matches its policy on the method and the event alone would decide it, and the
 * decision is a reply JSON-RPC 2.0 forbids: §4.1, the Server MUST NOT reply to a Notification).
 */
export type NotificationFlaw =
  'unknown-method' | 'unknown-event-type' | 'unsupported-version' | 'invalid-params' | 'intercept-method';

/** Every notification flaw, in the order the cases name them. */
export const NOTIFICATION_FLAWS: readonly NotificationFlaw[] = [
  'unknown-method',
  'unknown-event-type',
  'unsupported-version',
  'invalid-params',
  'intercept-method',
];

/** What each flaw breaks, in words, for findings and the validator cross-check. */
const NOTIFICATION_FLAW_WORDS: Readonly<Record<NotificationFlaw, string>> = {
  'unknown-method': 'its method is not an AHP method',
  'unknown-event-type': 'its event type is no AHP event type',
  'unsupported-version': "its protocolVersion is not the draft's",
  'invalid-params': 'its params hold no event',
  'intercept-method': 'it is a hooks/intercept request without an id',
};

/**
 * What makes a hooks/intercept request one the backend cannot process: no params at all, or params
 * (protocolVersion and capabilities as on a plain request) that hold no event.
 */
export type RequestFlaw = 'no-params' | 'no-event';

/** Every request flaw, in the order the cases name them. */
export const REQUEST_FLAWS: readonly RequestFlaw[] = ['no-params', 'no-event'];

/** What each request flaw breaks, in words, for findings and the validator cross-check. */
const REQUEST_FLAW_WORDS: Readonly<Record<RequestFlaw, string>> = {
  'no-params': 'it has no params',
  'no-event': 'its params hold no event',
};

/**
 * What makes a tool.before's event lack what a policy reads: no `tool`, or a `tool` without its
 * `input`. Both are invalid (the schema requires them), but a backend may still decide it.
 */
export type ToolFlaw = 'no-tool' | 'no-tool-input';

/** Every tool flaw, in the order the cases name them. */
export const TOOL_FLAWS: readonly ToolFlaw[] = ['no-tool', 'no-tool-input'];

/** What each tool flaw breaks, in words, for findings and the validator cross-check. */
const TOOL_FLAW_WORDS: Readonly<Record<ToolFlaw, string>> = {
  'no-tool': 'its event has no tool',
  'no-tool-input': 'its tool has no input',
};

const isToolFlaw = (flaw: RequestFlaw | ToolFlaw): flaw is ToolFlaw =>
  (TOOL_FLAWS as readonly string[]).includes(flaw);

/**
 * The text of the `unparsable` frame: a hooks/intercept request cut off before its end, as a torn
 * write leaves it. The part that arrived holds no id, so the reply's id can only be null.
 */
export const UNPARSABLE_TEXT =
  '{"jsonrpc":"2.0","method":"hooks/intercept","params":{"protocolVersion":"draft"';

/** The ways a line of JSON is no JSON-RPC Request object that the backend cases send. */
export type NotARequest = 'method-not-a-string' | 'null';

/**
 * The text of each `invalid-request` frame: valid JSON, but no Request object (JSON-RPC 2.0 §4).
 * - `method-not-a-string`: an object whose method is a number. Its id member is there (a
 *   Notification is a Request object without one, §4.1, so no reading makes it one), and it is
 *   null: a backend that reads the id anyway reads null, and one that cannot detect it answers
 *   null (§5), so the reply's id can only be null.
 * - `null`: the JSON value null, no object at all, so no id to read either. A loop that reads the
 *   method or the id of whatever it parsed, unchecked, dies on it in most languages.
 */
export const INVALID_REQUEST_TEXTS: Readonly<Record<NotARequest, string>> = {
  'method-not-a-string': '{"jsonrpc":"2.0","method":1,"id":null}',
  null: 'null',
};

/** What each `invalid-request` frame is, in words, after "it is not a JSON-RPC Request object: ". */
const NOT_A_REQUEST_WORDS: Readonly<Record<NotARequest, string>> = {
  'method-not-a-string': 'its method is not a string',
  null: 'it is the JSON value null, not an object',
};

/** A frame ready to write. */
export interface BuiltFrame {
  kind: 'request' | 'notification';
  text: string;
  /**
   * The JSON-RPC id a reply must carry: a request's own, or null for a line that is not JSON or
   * not a Request object (no id can be read from it). Absent for a notification.
   */
  id?: string | null;
}

/** The tool input of the allow path when the vendor gives no `--allow-input`: a read-only listing. */
export const DEFAULT_ALLOW_INPUT: JsonObject = { command: 'ls -la' };

/**
 * The tool inputs a run sends: what the vendor's policy lets through, what it denies, and what it
 * answers with an edit or added context (`modify`, `inject`, `return`).
 */
export interface ToolInputs {
  allow: JsonObject;
  deny?: JsonObject;
  modify?: JsonObject;
}

/** The advertisement of the allow and deny paths: a Tool Interception harness's minimum. */
export const DENY_ONLY: JsonObject = { effects: ['deny'] };

/**
 * The advertisement of the modify path: every effect tool.before can take (the per-event bounds),
 * with the tool input editable by replace and merge and context injectable now or next turn, so
 * a vendor's policy may answer the modify input however it edits.
 */
export const MODIFY_PATH_CAPABILITIES: JsonObject = {
  effects: ['deny', 'allow', 'ask', 'modify', 'inject', 'return', 'message', 'flow'],
  modify: { input: { replace: true, merge: true } },
  inject: { context: { append: true, deliverAt: ['now', 'next_turn'] } },
  flow: { operations: ['stop'] },
};

/** What an intercept frame advertises. */
export function advertisementOf(spec: Extract<FrameSpec, { send: 'intercept' }>): JsonObject {
  return spec.input === 'modify' ? MODIFY_PATH_CAPABILITIES : DENY_ONLY;
}

/**
 * Whether a frame spec builds a valid draft message, or what it breaks on purpose. Everything the
 * suite sends is valid except these: the requests a backend must refuse with an error, the
 * tool.before events without a tool or its input (answered either way), the line that is not
 * JSON, the one that is no Request object, and the notifications it must leave unanswered.
 */
export function intentOf(spec: FrameSpec): { valid: true } | { valid: false; breaks: string } {
  if (spec.send === 'method')
    return { valid: false, breaks: `the method "${spec.method}" is not an AHP method` };
  if (spec.send === 'observe' && spec.flaw !== undefined) {
    return { valid: false, breaks: `a notification: ${NOTIFICATION_FLAW_WORDS[spec.flaw]}` };
  }
  if (spec.send === 'unparsable') return { valid: false, breaks: 'it is not JSON' };
  if (spec.send === 'invalid-request') {
    return {
      valid: false,
      breaks: `it is not a JSON-RPC Request object: ${NOT_A_REQUEST_WORDS[spec.shape]}`,
    };
  }
  if (spec.send !== 'intercept') return { valid: true };
  if (spec.flaw !== undefined) {
    return { valid: false, breaks: `a hooks/intercept request: ${flawWords(spec.flaw)}` };
  }
  if (spec.protocolVersion !== undefined) {
    return { valid: false, breaks: `params.protocolVersion "${spec.protocolVersion}" is not the draft's` };
  }
  if (spec.eventType !== undefined) {
    return { valid: false, breaks: `event.type "${spec.eventType}" is no AHP event type` };
  }
  return { valid: true };
}

/** What a request flaw or a tool flaw breaks, in words. */
function flawWords(flaw: RequestFlaw | ToolFlaw): string {
  return isToolFlaw(flaw) ? TOOL_FLAW_WORDS[flaw] : REQUEST_FLAW_WORDS[flaw];
}

/** Names used for unknown fields: no AHP revision defines them. */
export const UNKNOWN_FIELD = 'xConformanceUnknownField';
/** The value of every unknown field: nested, so a backend cannot skip it by type. */
export const UNKNOWN_FIELD_VALUE: JsonObject = { note: 'ignore me', nested: [1, 'two', { three: true }] };
/** A protocol version no backend supports. */
export const UNSUPPORTED_VERSION = '1900-01-01';
/** An event type no AHP revision defines. */
export const UNKNOWN_EVENT_TYPE = 'conformance.unknown';
/** A method no AHP revision defines. */
export const UNKNOWN_METHOD = 'hooks/conformanceUnknownMethod';
/** A notification method no AHP revision defines. */
export const UNKNOWN_NOTIFICATION_METHOD = 'hooks/conformanceUnknownNotification';

/** What a step sends, in words, for findings: "a request with an unknown field in params.session". */
export function describeFrame(spec: FrameSpec): string {
  switch (spec.send) {
    case 'method':
      return `a request for method "${spec.method}"`;
    case 'observe':
      return spec.flaw === undefined
        ? 'a hooks/observe notification'
        : `a notification the backend cannot process (${NOTIFICATION_FLAW_WORDS[spec.flaw]})`;
    case 'repeat':
      return `the frame of step ${spec.of + 1} again`;
    case 'unparsable':
      return 'a line that is not JSON (a hooks/intercept request cut off before its end)';
    case 'invalid-request':
      return spec.shape === 'null'
        ? 'a line that is JSON but no JSON-RPC Request object (the value null)'
        : 'a line that is JSON but no JSON-RPC Request object (its method is a number, its id null)';
    case 'intercept': {
      // A request without an event or a tool carries no tool input: its flaw is all there is to say.
      if (spec.flaw !== undefined && isToolFlaw(spec.flaw)) {
        return `an invalid tool.before (${TOOL_FLAW_WORDS[spec.flaw]})`;
      }
      if (spec.flaw !== undefined) {
        return `a hooks/intercept request the backend cannot process (${REQUEST_FLAW_WORDS[spec.flaw]})`;
      }
      const parts = [`a tool.before with the ${spec.input} input`];
      if (spec.protocolVersion !== undefined) parts.push(`protocolVersion "${spec.protocolVersion}"`);
      if (spec.eventType !== undefined) parts.push(`event type "${spec.eventType}"`);
      const sites = (spec.unknownFieldsAt ?? []).map((site) => UNKNOWN_FIELD_PATHS[site]);
      if (sites.length > 0) parts.push(`an unknown field "${UNKNOWN_FIELD}" in ${sites.join(', ')}`);
      return parts.join(', ');
    }
  }
}

/** Where each unknown-field site is, as a JSON path of the request. */
export const UNKNOWN_FIELD_PATHS: Readonly<Record<UnknownFieldSite, string>> = {
  params: 'params',
  event: 'params.event',
  session: 'params.event.session',
  capabilities: 'params.capabilities',
};

/** A valid observe notification changed by `flaw`, if any, into one the backend cannot process. */
function flawed(
  message: JsonObject,
  flaw: Exclude<NotificationFlaw, 'intercept-method'> | undefined,
): JsonObject {
  const params = message.params as JsonObject;
  switch (flaw) {
    case undefined:
      return message;
    case 'unknown-method':
      return { ...message, method: UNKNOWN_NOTIFICATION_METHOD };
    case 'unknown-event-type':
      return {
        ...message,
        params: { ...params, event: { ...(params.event as JsonObject), type: UNKNOWN_EVENT_TYPE } },
      };
    case 'unsupported-version':
      return { ...message, params: { ...params, protocolVersion: UNSUPPORTED_VERSION } };
    case 'invalid-params':
      return { ...message, params: { protocolVersion: params.protocolVersion ?? null } };
  }
}

/** Fresh identities and timestamps for one case. */
export class FrameFactory {
  private readonly nonce = randomUUID().slice(0, 8);
  private counter = 0;
  private readonly built: BuiltFrame[] = [];

  constructor(
    private readonly inputs: ToolInputs,
    private readonly wallNow: () => number,
  ) {}

  /** Builds the frame of step `built.length`; `repeat` refers to an earlier step by index. */
  build(spec: FrameSpec): BuiltFrame {
    const frame = this.make(spec);
    this.built.push(frame);
    return frame;
  }

  private next(prefix: string): string {
    this.counter += 1;
    return `${prefix}_${this.nonce}_${this.counter}`;
  }

  private make(spec: FrameSpec): BuiltFrame {
    switch (spec.send) {
      case 'repeat': {
        const earlier = this.built[spec.of];
        if (!earlier) throw new Error(`repeat of step ${spec.of}, which has not been built`);
        return earlier;
      }
      case 'method': {
        const id = this.next('req');
        const text = JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: spec.method,
          params: { protocolVersion: PROTOCOL_VERSION },
        });
        return { kind: 'request', text, id };
      }
      case 'observe': {
        if (spec.flaw === 'intercept-method') return this.interceptWithoutId();
        const event = {
          ...this.toolEvent(structuredClone(this.inputs.allow)),
          type: 'tool.after',
        } as JsonObject;
        Object.assign(event, { outcome: 'ok', execution: { status: 'executed' }, items: [] });
        const message = flawed(
          { jsonrpc: '2.0', method: OBSERVE_METHOD, params: { protocolVersion: PROTOCOL_VERSION, event } },
          spec.flaw,
        );
        return { kind: 'notification', text: JSON.stringify(message) };
      }
      case 'unparsable':
        return { kind: 'request', text: UNPARSABLE_TEXT, id: null };
      case 'invalid-request':
        return { kind: 'request', text: INVALID_REQUEST_TEXTS[spec.shape], id: null };
      case 'intercept':
        return this.intercept(spec);
    }
  }

  private toolEvent(input: JsonObject): JsonObject {
    return {
      id: this.next('evt'),
      source: `urn:ahp-conformance:backend-suite:${this.nonce}`,
      type: 'tool.before',
      time: new Date(this.wallNow()).toISOString(),
      session: { id: `sess_${this.nonce}`, cwd: '/workspace' },
      call: { id: this.next('call') },
      tool: { name: 'Bash', kind: 'shell', origin: 'native', input },
      path: 'native',
    };
  }

  /** The allow path's plain hooks/intercept request, its id member left out: a notification. */
  private interceptWithoutId(): BuiltFrame {
    const { id: _id, ...message } = JSON.parse(
      this.intercept({ send: 'intercept', input: 'allow' }).text,
    ) as JsonObject;
    return { kind: 'notification', text: JSON.stringify(message) };
  }

  private intercept(spec: Extract<FrameSpec, { send: 'intercept' }>): BuiltFrame {
    const input = this.inputs[spec.input];
    if (!input) throw new Error(`a ${spec.input}-path frame needs --${spec.input}-input`);
    const event = this.toolEvent(structuredClone(input));
    if (spec.eventType !== undefined) event.type = spec.eventType;
    const capabilities = structuredClone(advertisementOf(spec));
    const params: JsonObject = {
      protocolVersion: spec.protocolVersion ?? PROTOCOL_VERSION,
      event,
      capabilities,
    };
    const holder: Record<UnknownFieldSite, JsonObject> = {
      params,
      event,
      session: event.session as JsonObject,
      capabilities,
    };
    for (const site of spec.unknownFieldsAt ?? []) {
      holder[site][UNKNOWN_FIELD] = structuredClone(UNKNOWN_FIELD_VALUE);
    }
    // The id stays the event's id even when the flaw takes the event out: fresh, like every request's.
    const id = event.id as string;
    if (spec.flaw === 'no-event') delete params.event;
    if (spec.flaw === 'no-tool') delete event.tool;
    if (spec.flaw === 'no-tool-input') delete (event.tool as JsonObject).input;
    const message: JsonObject = { jsonrpc: '2.0', id, method: INTERCEPT_METHOD };
    if (spec.flaw !== 'no-params') message.params = params;
    return { kind: 'request', text: JSON.stringify(message), id };
  }
}
