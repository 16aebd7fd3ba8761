/**
 * The rules a backend can break, each with its stable key, the one line that holds for every
 * occurrence (for the problems list) and the sentence it rests on. A finding's `rule` (with its
 * `way`) is what groups the same defect across cases into one problem, so every check that judges
 * the same sentence the same way uses the same rule here. A summary asserts only what every
 * occurrence shows; a way that shows something else (a process replaced) carries its own. Pure data.
 */
import type { Basis } from '../common/finding.js';
import { BASIS } from './basis.js';

/** One rule: its key (never with per-occurrence values), what is wrong when it is broken, its sentence. */
export interface Rule {
  key: string;
  summary: string;
  basis: Basis;
}

/** Every rule a backend finding names, by a short name. */
export const RULES = {
  jsonRpcResponse: {
    key: 'jsonrpc.response',
    summary: 'a reply is not one JSON-RPC 2.0 response carrying the id of its request',
    basis: BASIS.jsonRpc,
  },
  jsonRpcBytes: {
    key: 'jsonrpc.bytes',
    summary: 'a reply is not one UTF-8 JSON value',
    basis: BASIS.jsonRpc,
  },
  resultVersion: {
    key: 'result.protocol-version',
    summary: 'a result does not carry protocolVersion "draft"',
    basis: BASIS.resultVersion,
  },
  stdout: {
    key: 'stdio.stdout',
    summary: 'stdout carries something other than one JSON-RPC message per line',
    basis: BASIS.stdioFraming,
  },
  stdioLifecycle: {
    key: 'stdio.lifecycle',
    summary: 'the backend process ended where its lifecycle says it answers',
    basis: BASIS.stdioLifecycle,
  },
  perEventReply: {
    key: 'stdio.per-event',
    summary: 'a per_event backend did not write one reply line and exit 0',
    basis: BASIS.stdioPerEvent,
  },
  httpExchange: {
    key: 'http.exchange',
    summary: 'a request was not answered with 200 and one JSON response',
    basis: BASIS.httpExchange,
  },
  httpNotification: {
    key: 'http.notification',
    summary: 'a notification was not answered 202 or 204 with no body',
    basis: BASIS.httpNotification,
  },
  noCredentialEcho: {
    key: 'http.credential-echo',
    summary: 'a reply carries the bearer token',
    basis: BASIS.noCredentialEcho,
  },
  notificationSilence: {
    key: 'notification.silence',
    summary: 'a notification got a reply',
    basis: BASIS.notificationSilence,
  },
  unprocessableNotificationSilence: {
    key: 'notification.unprocessable-silence',
    summary:
      'a request sent after a notification the backend cannot process was not answered like the one before it',
    basis: BASIS.unprocessableNotificationSilence,
  },
  requestAnswered: {
    key: 'request.answered',
    summary: 'a request of a sequential run was not answered within the deadline',
    basis: BASIS.requestAnswered,
  },
  returnedContent: {
    key: 'effects.returned-content-canonical',
    summary: 'an inject the backend returned carries messages that are not canonical content',
    basis: BASIS.returnedContent,
  },
  returnedEdit: {
    key: 'effects.modify-value-fits-target',
    summary: 'a modify the backend returned does not fit its target',
    basis: BASIS.returnedEdit,
  },
  advertisedOnly: {
    key: 'effects.advertised-only',
    summary: 'a result carries an effect the request did not advertise',
    basis: BASIS.advertisedOnly,
  },
  effectList: {
    key: 'effects.deny-only-list',
    summary: 'with only deny advertised, a valid request did not get [] or one valid deny',
    basis: BASIS.effectList,
  },
  duplicates: {
    key: 'duplicate.same-decision',
    summary: 'a duplicate delivery was not answered like the first',
    basis: BASIS.duplicates,
  },
  unknownFields: {
    key: 'unknown-fields.ignored',
    summary: 'an unknown field in an open object changed the answer',
    basis: BASIS.unknownFields,
  },
  unsupportedVersion: {
    key: 'version.unsupported-refused',
    summary:
      'a request with an unsupported protocolVersion was not refused with an error by a backend that keeps working',
    basis: BASIS.unsupportedVersion,
  },
  unsupportedVersionCode: {
    key: 'version.unsupported-code',
    summary: 'an unsupported protocolVersion got an error code other than -32001',
    basis: BASIS.unsupportedVersion,
  },
  unknownEvent: {
    key: 'event.unknown-refused',
    summary:
      'a request for an unknown event type was not refused with an error by a backend that keeps working',
    basis: BASIS.unknownEvent,
  },
  unknownMethod: {
    key: 'method.unknown-refused',
    summary: 'a request for an unknown method was not refused with an error by a backend that keeps working',
    basis: BASIS.unknownMethod,
  },
  unprocessableRequest: {
    key: 'request.unprocessable-refused',
    summary:
      'a hooks/intercept request without params or without an event was not refused with an error by a backend that keeps working',
    basis: BASIS.unprocessableRequest,
  },
  parseError: {
    key: 'jsonrpc.parse-error-answered',
    summary:
      'a line that is not JSON was not answered with a JSON-RPC error with id null by a backend that keeps working',
    basis: BASIS.parseError,
  },
  parseErrorCode: {
    key: 'jsonrpc.parse-error-code',
    summary: 'a line that is not JSON got an error code other than -32700 Parse error',
    basis: BASIS.parseErrorCode,
  },
  invalidRequest: {
    key: 'jsonrpc.invalid-request-answered',
    summary:
      'a line that is JSON but no JSON-RPC Request object was not answered with a JSON-RPC error with id null by a backend that keeps working',
    basis: BASIS.invalidRequest,
  },
  invalidRequestCode: {
    key: 'jsonrpc.invalid-request-code',
    summary:
      'a line that is JSON but no JSON-RPC Request object got an error code other than -32600 Invalid Request',
    basis: BASIS.invalidRequestCode,
  },
  toolLessRequest: {
    key: 'request.without-tool-answered',
    summary:
      'a tool.before without a tool, or whose tool has no input, was not answered with its id by a backend that keeps working',
    basis: BASIS.toolLessRequest,
  },
  // One rule for the event and the method code: the same sentence, broken the same way.
  definedErrorCode: {
    key: 'error.defined-code',
    summary: 'a request the backend cannot process got an error code other than the one defined for it',
    basis: BASIS.definedErrorCode,
  },
} as const satisfies Record<string, Rule>;
