import {
  UNKNOWN_EVENT_TYPE,
  UNKNOWN_METHOD,
  UNSUPPORTED_VERSION,
  type FrameSpec,
  type UnknownFieldSite,
} from './frames.js';
import { step, type Probe } from './probe.js';

const ALLOW = { send: 'intercept', input: 'allow' } as const;
const DENY = { send: 'intercept', input: 'deny' } as const;

/**
 * Duplicate delivery (AHP-CORE-004): the identical frame (same event, JSON-RPC, session and call
 * IDs, same content) delivered twice gets the same decision, the deny path included.
 */
export const DUPLICATE_PROBES: readonly Probe[] = [
  {
    requirement: 'AHP-CORE-004',
    name: 'allow-path/duplicate-gets-the-same-decision',
    steps: [step.baseline(ALLOW), step.variant({ send: 'repeat', of: 0 })],
    sameDecision: [[0, 1]],
  },
  {
    requirement: 'AHP-CORE-004',
    name: 'deny-path/duplicate-gets-the-same-decision',
    needsDenyInput: true,
    steps: [step.baseline(DENY), step.variant({ send: 'repeat', of: 0 })],
    sameDecision: [[0, 1]],
  },
];

const SITES: readonly UnknownFieldSite[] = ['params', 'event', 'session', 'tool', 'capabilities'];

function unknownFields(input: 'allow' | 'deny', sites: readonly UnknownFieldSite[]): FrameSpec {
  return { send: 'intercept', input, unknownFieldsAt: sites };
}

/**
 * Unknown fields (AHP-CORE-003): tolerated wherever they appear, with the same decision and no
 * error. One case sends a baseline, then one request per place an unknown field is added.
 */
export const UNKNOWN_FIELD_PROBES: readonly Probe[] = [
  {
    requirement: 'AHP-CORE-003',
    name: `unknown-fields:${SITES.join(',')}/same-decision-no-error`,
    steps: [step.baseline(ALLOW), ...SITES.map((site) => step.variant(unknownFields('allow', [site])))],
    sameDecision: SITES.map((_, i) => [0, i + 1] as const),
  },
  {
    requirement: 'AHP-CORE-003',
    name: 'deny-path/unknown-fields-everywhere/same-decision-no-error',
    needsDenyInput: true,
    steps: [step.baseline(DENY), step.variant(unknownFields('deny', SITES))],
    sameDecision: [[0, 1]],
  },
];

/** One defined-error check: a baseline, the unprocessable request, then a plain request again. */
function definedError(
  requirement: string,
  name: string,
  frame: FrameSpec,
  what: string,
  code: number,
): Probe[] {
  const steps = [step.baseline(ALLOW), step.variant(frame, 'error'), step.variant(ALLOW)];
  return [
    { requirement, name: `${name}/gets-an-error-and-the-backend-keeps-working`, steps, what },
    { requirement, name: `${name}/error-code:${code}`, level: 'SHOULD', steps, what, errorCode: code },
  ];
}

/**
 * Defined errors: an unsupported protocolVersion (AHP-VER-001), an event type the backend does
 * not handle (AHP-CORE-003: unknown event values are unsupported, never ignorable) and an unknown
 * method (AHP-RPC-002: only the AHP methods carry decisions) each get a JSON-RPC error (MUST),
 * with the recommended code (SHOULD), and none of them breaks the backend.
 */
export const DEFINED_ERROR_PROBES: readonly Probe[] = [
  ...definedError(
    'AHP-VER-001',
    'unsupported-protocol-version',
    { ...ALLOW, protocolVersion: UNSUPPORTED_VERSION },
    `a request with protocolVersion "${UNSUPPORTED_VERSION}"`,
    -32001,
  ),
  ...definedError(
    'AHP-CORE-003',
    'unknown-event-type',
    { ...ALLOW, eventType: UNKNOWN_EVENT_TYPE },
    `a request for event type "${UNKNOWN_EVENT_TYPE}"`,
    -32002,
  ),
  ...definedError(
    'AHP-RPC-002',
    'unknown-method',
    { send: 'method', method: UNKNOWN_METHOD },
    `a request for method "${UNKNOWN_METHOD}"`,
    -32601,
  ),
];
