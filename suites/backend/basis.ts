/**
 * The normative sentences the backend cases rest on. A case takes its level from its basis,
 * never from a default: the draft's own wording (document and anchor in the published draft,
 * `agenthooksprotocol/agent-hooks-protocol`) decides whether a behaviour is a MUST or a SHOULD.
 * `rule` is our paraphrase of the sentence, for reports; the anchor points at the original.
 */
import type { Basis } from '../common/finding.js';

const VERSIONING = 'spec/draft/base/versioning.md';
const BASE_INDEX = 'spec/draft/base/index.md';

/** Every basis a backend case cites, by a short name. */
export const BASIS = {
  jsonRpc: {
    document: VERSIONING,
    anchor: 'AHP-RPC-001',
    level: 'MUST',
    rule: 'Protocol messages are UTF-8 JSON-RPC 2.0 (no batches); a response carries the id of its request.',
  },
  resultVersion: {
    document: VERSIONING,
    anchor: 'AHP-VER-001',
    level: 'MUST',
    rule: 'Every successful result carries protocolVersion equal to the snapshot identifier ("draft").',
  },
  unsupportedVersion: {
    document: VERSIONING,
    anchor: 'AHP-VER-001',
    level: 'MUST',
    rule: 'A backend that does not support the supplied protocolVersion returns the AHP error unsupported_protocol_version (-32001).',
  },
  stdioFraming: {
    document: 'spec/draft/base/transports/stdio.md',
    anchor: 'AHP-STDIO-001',
    level: 'MUST',
    rule: 'stdout carries one UTF-8 JSON-RPC object per line and nothing else; diagnostics go to stderr.',
  },
  stdioPerEvent: {
    document: 'spec/draft/base/transports/stdio.md',
    anchor: 'AHP-STDIO-001',
    level: 'MUST',
    rule: 'A per_event backend reads one message, writes at most one response line and exits; a non-zero exit or a missing response is a failure.',
  },
  stdioLifecycle: {
    document: 'spec/draft/base/transports/stdio.md',
    anchor: 'AHP-STDIO-001',
    level: 'MUST',
    rule: 'A persistent backend remains alive for multiple messages; a per_event backend reads one message, writes at most one response and exits 0 (a non-zero exit or a missing response is a failure).',
  },
  httpExchange: {
    document: 'spec/draft/base/transports/http.md',
    anchor: 'AHP-HTTP-001',
    level: 'MUST',
    rule: 'One JSON-RPC object per POST; a request is answered with 200 and one JSON response object with a JSON media type.',
  },
  httpNotification: {
    document: 'spec/draft/base/transports/http.md',
    anchor: 'AHP-HTTP-001',
    level: 'MUST',
    rule: 'An accepted hooks/observe notification is answered 202 or 204 with no body.',
  },
  noCredentialEcho: {
    document: 'spec/draft/base/transports/http.md',
    anchor: 'AHP-HTTP-001',
    level: 'MUST',
    rule: 'The bearer credential travels in the Authorization header only; it never appears in payloads, denial reasons or error data (errors.md: error data MUST NOT contain secrets).',
  },
  notificationSilence: {
    document: VERSIONING,
    anchor: 'AHP-RPC-002',
    level: 'MUST',
    rule: 'Observation is a hooks/observe notification; base/index.md (Base Protocol profile): notifications never receive a response, not even an error.',
  },
  unprocessableNotificationSilence: {
    document: 'spec/draft/base/events.md',
    anchor: 'Observe notification',
    level: 'MUST',
    rule: 'A notification has no id and never receives a JSON-RPC response, not even an error for a notification the backend cannot process (versioning.md AHP-RPC-002; base/index.md, Base Protocol profile); the backend keeps serving.',
  },
  requestAnswered: {
    document: VERSIONING,
    anchor: 'AHP-RPC-002',
    level: 'MUST',
    rule: 'A decision is asked for with a hooks/intercept request, which gets its response (JSON-RPC 2.0 §4: a request is always answered), within the deadline the registration would set.',
  },
  returnedContent: {
    document: 'spec/draft/content-upload.md',
    anchor: 'AHP-CONTENT-001',
    level: 'MUST',
    rule: 'Model-visible content a backend returns (the messages of an inject) is canonical: known roles, ordered parts, text inline, structured data as text, no JSON part.',
  },
  returnedEdit: {
    document: 'spec/draft/server/tool-interception.md',
    anchor: 'AHP-EDIT-001',
    level: 'MUST',
    rule: 'A modify names a target and an operation, replace or merge, with a value its target takes: at tool.before the tool input, an object.',
  },
  advertisedOnly: {
    document: 'spec/draft/base/capabilities.md',
    anchor: 'AHP-CAP-001',
    level: 'MUST',
    rule: 'A backend returns only effects the request advertised.',
  },
  effectList: {
    document: 'spec/draft/server/tool-interception.md',
    anchor: 'AHP-DEC-001',
    level: 'MUST',
    rule: 'With only deny advertised, a successful result holds an empty effects array or exactly one valid deny (non-empty reason).',
  },
  duplicates: {
    document: 'spec/draft/base/failure.md',
    anchor: 'AHP-CORE-004',
    level: 'MUST',
    rule: 'A retry repeats every identity and the content; the backend tolerates the duplicate delivery (an equivalent result).',
  },
  unknownFields: {
    document: VERSIONING,
    anchor: 'AHP-CORE-003',
    level: 'MUST',
    rule: 'Receivers ignore unknown fields in otherwise valid objects (only objects the draft schemas leave open: tool and call are closed).',
  },
  unknownEvent: {
    document: VERSIONING,
    anchor: 'AHP-CORE-003',
    level: 'MUST',
    rule: 'Unknown event types are unsupported protocol semantics, never ignorable fields; base/index.md (Base Protocol profile): a backend returns the defined JSON-RPC error for a request whose event it cannot process.',
  },
  unknownMethod: {
    document: BASE_INDEX,
    anchor: 'Base Protocol profile',
    level: 'MUST',
    rule: 'A backend returns a JSON-RPC error for a request whose method it cannot process; only hooks/intercept carries a decision (versioning.md AHP-RPC-002).',
  },
  unprocessableRequest: {
    document: BASE_INDEX,
    anchor: 'Base Protocol profile',
    level: 'MUST',
    rule: 'A backend returns a JSON-RPC error for a request whose protocol version or event it cannot process: a hooks/intercept without params has neither, one whose params hold no event has no event. Every message it receives is decoded as JSON-RPC 2.0 (versioning.md AHP-RPC-001), where a request always gets a response. errors.md defines no AHP code for these, so any error code is taken.',
  },
  parseError: {
    document: VERSIONING,
    anchor: 'AHP-RPC-001',
    level: 'MUST',
    rule: 'Messages are JSON-RPC 2.0, where every call but a Notification gets a Response (§5), and the Response to one whose id could not be read, a Parse error first of all, carries id null (§5, the id member). A line that is not JSON cannot be a Notification (a Request object without an id), so it gets an error with id null, and a persistent backend remains alive for the messages after it (stdio.md, Persistent lifecycle).',
  },
  parseErrorCode: {
    document: VERSIONING,
    anchor: 'AHP-RPC-001',
    level: 'SHOULD',
    rule: 'JSON-RPC 2.0 (§5.1) names -32700 Parse error for invalid JSON received by the server. Its code table carries no MUST, and the defined-error MUST of base/index.md (Base Protocol profile) covers requests whose version, method or event a backend cannot process, not text that is no request at all: a SHOULD.',
  },
  invalidRequest: {
    document: VERSIONING,
    anchor: 'AHP-RPC-001',
    level: 'MUST',
    rule: 'Messages are JSON-RPC 2.0, where a Request that cannot be processed gets an error Response (§5), whose id is null when the id could not be detected, an Invalid Request among them (§5, the id member). JSON that is no object, or whose method is not a String, is no Request object (§4), so no Notification either (§4.1: a Request object without an id); with no id to read, or an id of null, its reply carries id null, and a persistent backend remains alive for the messages after it (stdio.md, Persistent lifecycle).',
  },
  invalidRequestCode: {
    document: VERSIONING,
    anchor: 'AHP-RPC-001',
    level: 'SHOULD',
    rule: 'JSON-RPC 2.0 (§5.1) names -32600 Invalid Request for JSON that is not a valid Request object. Its code table carries no MUST, and the defined-error MUST of base/index.md (Base Protocol profile) covers requests whose version, method or event a backend cannot process, not a message that is no request at all: a SHOULD.',
  },
  toolLessRequest: {
    document: VERSIONING,
    anchor: 'AHP-RPC-001',
    level: 'MUST',
    rule: 'Messages are JSON-RPC 2.0, where a call gets a Response carrying its id (§4, the id member; §5). A tool.before whose event has no tool, or whose tool has no input, is invalid: a backend may refuse it with an error (base/index.md, Base Protocol profile) or decide it, but it answers it, and goes on answering.',
  },
  definedErrorCode: {
    document: BASE_INDEX,
    anchor: 'Base Protocol profile',
    level: 'MUST',
    rule: 'A backend returns the defined JSON-RPC error for a request it cannot process: errors.md defines unsupported_event (-32002) for an event it cannot handle, and for a method it cannot process JSON-RPC 2.0 defines -32601 Method not found (backends use standard JSON-RPC error responses).',
  },
} as const satisfies Record<string, Basis>;
