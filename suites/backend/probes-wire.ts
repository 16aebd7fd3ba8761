import { NOTIFICATION_FLAWS, UNKNOWN_METHOD } from './frames.js';
import { step, type Probe } from './probe.js';
import { RULES } from './rules.js';

const ALLOW = { send: 'intercept', input: 'allow' } as const;
const OBSERVE = { send: 'observe' } as const;

/**
 * The common decision run: two plain requests (the second also reports anything written on
 * stdout after the first reply), then the deny path when `--deny-input` was given. Probes with
 * the same steps share one session, so this run serves every wire and decision probe.
 */
export const DECISION_RUN = [step.subject(ALLOW), step.subject(ALLOW), step.denySubject()] as const;

/**
 * The stdout run: every kind of message the suite sends (requests, a notification, a request the
 * backend must refuse), so that a log line written after any of them is seen by the cases that
 * judge stdout. Only framing is read from the replies: what they decide is other cases' business.
 */
export const STDOUT_RUN = [
  step.subject(ALLOW),
  step.subject(ALLOW),
  step.subject(OBSERVE, 'silence'),
  step.subject({ send: 'method', method: UNKNOWN_METHOD }, 'reply'),
  step.denySubject(),
] as const;

/**
 * Wire probes: every reply is one UTF-8 JSON-RPC 2.0 object with the request's id and a draft
 * result (AHP-RPC-001, AHP-VER-001); the binding's framing and lifecycle (AHP-STDIO-001,
 * AHP-HTTP-001); notifications get no reply at all (AHP-RPC-002).
 */
export const WIRE_PROBES: readonly Probe[] = [
  {
    requirement: 'AHP-RPC-001',
    name: 'reply-is-one-json-rpc-object-with-the-request-id',
    rule: RULES.jsonRpcResponse,
    steps: DECISION_RUN,
  },
  {
    requirement: 'AHP-VER-001',
    name: 'result-protocol-version-is-draft',
    rule: RULES.resultVersion,
    reads: 'decision',
    steps: DECISION_RUN,
  },
  {
    requirement: 'AHP-STDIO-001',
    name: 'stdout-carries-one-protocol-line-per-message',
    rule: RULES.stdout,
    bindings: ['stdio-persistent'],
    stdoutDiscipline: true,
    steps: STDOUT_RUN,
  },
  {
    requirement: 'AHP-STDIO-001',
    name: 'one-line-reply-then-exit-0',
    rule: RULES.perEventReply,
    bindings: ['stdio-per_event'],
    stdoutDiscipline: true,
    steps: STDOUT_RUN,
  },
  {
    requirement: 'AHP-HTTP-001',
    name: 'request-gets-200-with-a-json-media-type',
    rule: RULES.httpExchange,
    bindings: ['http'],
    steps: DECISION_RUN,
  },
  {
    // The HTTP binding keeps the token in the Authorization header: never in results, reasons or errors.
    requirement: 'AHP-HTTP-001',
    name: 'bearer-token-never-echoed',
    rule: RULES.noCredentialEcho,
    bindings: ['http'],
    noSecretEcho: true,
    steps: DECISION_RUN,
  },
  {
    requirement: 'AHP-HTTP-001',
    name: 'notification-gets-202-or-204-with-no-body',
    rule: RULES.httpNotification,
    bindings: ['http'],
    steps: [step.subject(OBSERVE, 'silence')],
  },
  {
    requirement: 'AHP-RPC-002',
    name: 'notification-gets-no-reply',
    rule: RULES.notificationSilence,
    steps: [step.baseline(), step.subject(OBSERVE, 'silence'), step.variant(ALLOW)],
  },
  // A notification the backend cannot process gets no reply either, not even an error, and the
  // backend goes on serving: the request after it is answered (by the same process on persistent stdio).
  ...NOTIFICATION_FLAWS.map((flaw): Probe => ({
    requirement: 'AHP-RPC-002',
    name: `notification-with-${flaw}-gets-no-reply`,
    rule: RULES.unprocessableNotificationSilence,
    sameProcess: true,
    steps: [step.baseline(), step.subject({ send: 'observe', flaw }, 'silence'), step.variant(ALLOW)],
  })),
];
