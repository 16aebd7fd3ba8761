/**
 * Harness rules about what reaches the backend: the framing and envelope of a frame (what the
 * mock needs to answer it at all), whether a call is delivered, the hygiene that holds in every
 * call (the JSON-RPC id, repeated bytes, what the audit and the driver report about the wire,
 * bearer credentials), and where a token may travel. Pure data.
 */
import { FINDING_RANK } from '../../common/finding.js';
import { basis, DOC, rule, type HarnessRule } from './rules-basis.js';

const { framing, envelope, decision, report } = FINDING_RANK;

const STDIO_FRAMING = basis(
  DOC.stdio,
  'AHP-STDIO-001',
  'MUST',
  'Each stdio message is one complete UTF-8 JSON-RPC object on one line, ended by a single newline.',
);
/**
 * The draft states the per_event lifecycle as a plain sentence, without a BCP 14 keyword, outside
 * AHP-STDIO-001's "Framing" block; it gives it no ID of its own. It is judged under AHP-STDIO-001,
 * the stdio binding's one requirement, at the sentence's section, and at that ID's level: a harness
 * whose backend is owed EOF and never gets it does not implement the binding (the backend suite
 * files the same section's backend half the same way, suites/backend/basis.ts).
 */
const PER_EVENT_LIFECYCLE = basis(
  DOC.stdio,
  'Process-per-event lifecycle',
  'MUST',
  'The harness writes a per_event backend one JSON-RPC message, then closes its stdin.',
);
/**
 * The persistent lifecycle's sentence stands outside AHP-STDIO-001's "Framing" block too, with its
 * own MUST and no ID: judged under AHP-STDIO-001, the stdio binding's one requirement, at the
 * sentence's section and level, like the per_event lifecycle above.
 */
const PERSISTENT_LIFECYCLE = basis(
  DOC.stdio,
  'Persistent lifecycle',
  'MUST',
  "The harness correlates a persistent backend's responses by JSON-RPC id: a frame that carries no outstanding request's id answers nothing, so the pending call settles by its own reply or its deadline, and the next call is not failed by it.",
);
const JSON_RPC = basis(
  DOC.versioning,
  'AHP-RPC-001',
  'MUST',
  'Protocol messages are UTF-8 encoded JSON-RPC 2.0; batches are not used.',
);
const CORRELATION = basis(
  DOC.events,
  'Intercept request',
  'MUST',
  'The JSON-RPC id of a hooks/intercept request equals params.event.id, and a retry of the event reuses both.',
);
const RETRY_IDENTITY = basis(
  DOC.failure,
  'AHP-CORE-004',
  'MUST',
  'Every retry reuses the same event id, JSON-RPC id, session id, call id and event contents.',
);

export const WIRE_RULES = {
  'stdio.framing': rule(
    'AHP-STDIO-001',
    STDIO_FRAMING,
    framing,
    'The harness writes a stdio frame that is not one JSON object on one line',
  ),
  'stdio.per-event-eof': rule(
    'AHP-STDIO-001',
    PER_EVENT_LIFECYCLE,
    framing,
    'A per_event backend does not get exactly one message followed by EOF on its stdin',
    {
      ways: {
        'never-closed': "The harness leaves a per_event backend's stdin open after its one message",
        'closed-late': "The harness closes a per_event backend's stdin only long after its one message",
        'message-count': 'A per_event backend reads other than exactly one message before EOF',
      },
    },
  ),
  'stdio.correlate-by-id': rule(
    'AHP-STDIO-001',
    PERSISTENT_LIFECYCLE,
    decision,
    "A frame carrying no outstanding request's id settles or fails a call on a persistent stdio backend",
    {
      ways: {
        'reply-not-taken':
          'A call on a persistent stdio backend does not settle by the reply carrying its id',
      },
    },
  ),
  'http.body': rule(
    'AHP-HTTP-001',
    basis(DOC.http, 'AHP-HTTP-001', 'MUST', 'Each POST body holds one JSON-RPC object, not a batch.'),
    framing,
    'The harness POSTs a body that is not one JSON object',
  ),
  'rpc.utf8': rule('AHP-RPC-001', JSON_RPC, framing, 'The harness sends a frame that is not valid UTF-8'),
  'rpc.envelope': rule(
    'AHP-RPC-001',
    JSON_RPC,
    envelope,
    'The harness sends JSON that is not a single JSON-RPC 2.0 message',
  ),
  'rpc.intercept-request': rule(
    'AHP-RPC-002',
    basis(
      DOC.versioning,
      'AHP-RPC-002',
      'MUST',
      'An interception that expects a decision is a hooks/intercept request (with an id, so that it is answered).',
    ),
    envelope,
    'The harness asks for a decision with something other than a hooks/intercept request',
    { ways: { notification: 'The harness sends hooks/intercept as a notification, without an id' } },
  ),
  'delivery.request-sent': rule(
    'AHP-RPC-002',
    basis(
      DOC.versioning,
      'AHP-RPC-002',
      'MUST',
      'A decision comes from the backend in answer to a hooks/intercept request, so a call settled from a reply was sent as one.',
    ),
    decision,
    'A call settled as answered, but no hooks/intercept request for it reached the backend',
  ),
  'delivery.no-unauthenticated-fallback': rule(
    'AHPX-FAIL-005',
    basis(
      DOC.failure,
      'Failure policy',
      'MUST NOT',
      'Fail-open does not permit unauthenticated fallback delivery: a credential that cannot be resolved means the request is not sent.',
    ),
    decision,
    'A call whose credential cannot be resolved is delivered anyway',
  ),
  'intercept.id-is-event-id': rule(
    'AHP-CORE-004',
    CORRELATION,
    envelope,
    'The JSON-RPC id of an intercept request is not its params.event.id',
    { crossCutting: true },
  ),
  'retry.identical-bytes': rule(
    'AHP-CORE-004',
    RETRY_IDENTITY,
    envelope,
    'A repeated delivery of a call differs from its first delivery',
    { crossCutting: true },
  ),
  'event.reported-id': rule(
    'AHP-CORE-004',
    basis(
      DOC.events,
      'Common event fields',
      'MUST',
      'An event has one id, stable across retries: the id the harness reports for a call is the one it delivered.',
    ),
    report,
    'The event id the harness reports is not the one it delivered',
    { crossCutting: true },
  ),
  'audit.attempts': rule(
    'AHP-CORE-004',
    RETRY_IDENTITY,
    report,
    "The audit's attempt count differs from the deliveries the backend received",
    { crossCutting: true },
  ),
  'audit.answer-without-reply': rule(
    'AHP-FAIL-001',
    basis(
      DOC.failure,
      'Failure classes',
      'MUST',
      'A call the backend never answered (deadline, lost connection, exited process) is an operational failure, never an answer.',
    ),
    report,
    'The audit says the backend answered a call it never answered',
    { crossCutting: true },
  ),
  'auth.bearer-header': rule(
    'AHP-AUTH-001',
    basis(
      DOC.capabilityAuth,
      'Explicit endpoint bindings',
      'MUST',
      'A bearer binding sends the resolved token in exactly one Authorization header on every request to its endpoint.',
    ),
    envelope,
    'A request to a bearer-authenticated backend lacks its token in the Authorization header',
    { crossCutting: true },
  ),
  'auth.token-only-in-header': rule(
    'AHP-AUTH-001',
    basis(
      DOC.capabilityAuth,
      'Authentication bindings',
      'MUST NOT',
      'Secret values never occur in registration, events, native metadata, logs, denial reasons or error data: a token travels in its header only.',
    ),
    envelope,
    'The bearer token appears in a request body',
  ),
} as const satisfies Record<string, HarnessRule>;
