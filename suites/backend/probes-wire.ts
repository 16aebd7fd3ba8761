import { BASIS } from './basis.js';
import { step, type Probe } from './probe.js';

const ALLOW = { send: 'intercept', input: 'allow' } as const;
const OBSERVE = { send: 'observe' } as const;

/**
 * The common decision run: two plain requests (the second also reports anything written on
 * stdout after the first reply), then the deny path when `--deny-input` was given. Probes with
 * the same steps share one session, so this run serves every wire and decision probe.
 */
export const DECISION_RUN = [step.subject(ALLOW), step.subject(ALLOW), step.denySubject()] as const;

/**
 * Wire probes: every reply is one UTF-8 JSON-RPC 2.0 object with the request's id and a draft
 * result (AHP-RPC-001, AHP-VER-001); the binding's framing and lifecycle (AHP-STDIO-001,
 * AHP-HTTP-001); notifications get no reply at all (AHP-RPC-002).
 */
export const WIRE_PROBES: readonly Probe[] = [
  {
    requirement: 'AHP-RPC-001',
    name: 'reply-is-one-json-rpc-object-with-the-request-id',
    basis: BASIS.jsonRpc,
    steps: DECISION_RUN,
  },
  {
    requirement: 'AHP-VER-001',
    name: 'result-protocol-version-is-draft',
    basis: BASIS.resultVersion,
    reads: 'decision',
    steps: DECISION_RUN,
  },
  {
    requirement: 'AHP-STDIO-001',
    name: 'stdout-carries-one-protocol-line-per-message',
    basis: BASIS.stdioFraming,
    bindings: ['stdio-persistent'],
    steps: DECISION_RUN,
  },
  {
    requirement: 'AHP-STDIO-001',
    name: 'one-line-reply-then-exit-0',
    basis: BASIS.stdioPerEvent,
    bindings: ['stdio-per_event'],
    steps: DECISION_RUN,
  },
  {
    requirement: 'AHP-HTTP-001',
    name: 'request-gets-200-with-a-json-media-type',
    basis: BASIS.httpExchange,
    bindings: ['http'],
    steps: DECISION_RUN,
  },
  {
    // The HTTP binding keeps the token in the Authorization header: never in results, reasons or errors.
    requirement: 'AHP-HTTP-001',
    name: 'bearer-token-never-echoed',
    basis: BASIS.noCredentialEcho,
    bindings: ['http'],
    noSecretEcho: true,
    steps: DECISION_RUN,
  },
  {
    requirement: 'AHP-HTTP-001',
    name: 'notification-gets-202-or-204-with-no-body',
    basis: BASIS.httpNotification,
    bindings: ['http'],
    steps: [step.subject(OBSERVE, 'silence')],
  },
  {
    requirement: 'AHP-RPC-002',
    name: 'notification-gets-no-reply',
    basis: BASIS.notificationSilence,
    steps: [step.baseline(), step.subject(OBSERVE, 'silence'), step.variant(ALLOW)],
  },
];
