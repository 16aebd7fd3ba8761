import type { Refusal } from './judge.js';
import {
  describeFrame,
  REQUEST_FLAWS,
  TOOL_FLAWS,
  UNKNOWN_EVENT_TYPE,
  UNKNOWN_FIELD_SITES,
  UNKNOWN_METHOD,
  UNSUPPORTED_VERSION,
  type FrameSpec,
  type RequestFlaw,
  type ToolFlaw,
  type UnknownFieldSite,
} from './frames.js';
import { step, type Probe } from './probe.js';
import { RULES, type Rule } from './rules.js';

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
    rule: RULES.duplicates,
    requireAllowed: true,
    steps: [step.baseline(ALLOW), step.variant({ send: 'repeat', of: 0 })],
    sameDecision: [[0, 1]],
  },
  {
    requirement: 'AHP-CORE-004',
    name: 'deny-path/duplicate-gets-the-same-decision',
    rule: RULES.duplicates,
    needsDenyInput: true,
    steps: [step.baseline(DENY), step.variant({ send: 'repeat', of: 0 })],
    sameDecision: [[0, 1]],
  },
];

const SITES = UNKNOWN_FIELD_SITES;

function unknownFields(input: 'allow' | 'deny', sites: readonly UnknownFieldSite[]): FrameSpec {
  return { send: 'intercept', input, unknownFieldsAt: sites };
}

/**
 * Unknown fields (AHP-CORE-003): tolerated in every object the draft leaves open (the case name
 * lists them), with the same decision and no error. One case sends a baseline, then one request
 * per place an unknown field is added. The closed `tool` and `call` objects get none: a field
 * there makes the request invalid, and refusing it is conforming.
 */
export const UNKNOWN_FIELD_PROBES: readonly Probe[] = [
  {
    requirement: 'AHP-CORE-003',
    name: `unknown-fields:${SITES.join(',')}/same-decision-no-error`,
    rule: RULES.unknownFields,
    requireAllowed: true,
    steps: [step.baseline(ALLOW), ...SITES.map((site) => step.variant(unknownFields('allow', [site])))],
    sameDecision: SITES.map((_, i) => [0, i + 1] as const),
  },
  {
    requirement: 'AHP-CORE-003',
    name: `deny-path/unknown-fields:${SITES.join(',')}/same-decision-no-error`,
    rule: RULES.unknownFields,
    needsDenyInput: true,
    steps: [step.baseline(DENY), step.variant(unknownFields('deny', SITES))],
    sameDecision: [[0, 1]],
  },
];

/** The steps of a refusal: a baseline, the request the backend must refuse, a plain request again. */
function refusalSteps(frame: FrameSpec) {
  return [step.baseline(ALLOW), step.variant(frame, 'error'), step.variant(ALLOW)];
}

/**
 * One refusal check (a MUST): the unprocessable request gets a JSON-RPC error carrying its id, not
 * a result, not silence, not a crash, and the backend answers the plain request after it.
 */
function refused(requirement: string, name: string, frame: FrameSpec, refusal: Refusal): Probe {
  return {
    requirement,
    name: `${name}/gets-an-error-and-the-backend-keeps-working`,
    rule: refusal.rule,
    steps: refusalSteps(frame),
    refusal,
  };
}

/**
 * One defined-error check: the refusal case, and its twin that judges only the code (`code.rule`);
 * a request that is not refused at all blocks the twin under the refusal's rule.
 */
function definedError(
  requirement: string,
  name: string,
  frame: FrameSpec,
  refusal: Refusal,
  code: { code: number; rule: Rule },
): Probe[] {
  return [
    refused(requirement, name, frame, refusal),
    {
      requirement,
      name: `${name}/error-code:${code.code}`,
      rule: code.rule,
      steps: refusalSteps(frame),
      refusal,
      errorCode: code.code,
    },
  ];
}

/**
 * Defined errors: an unsupported protocolVersion (AHP-VER-001), an event type the backend does
 * not handle (AHP-CORE-003: unknown event values are unsupported, never ignorable) and an unknown
 * method (AHP-RPC-002: only the AHP methods carry decisions) each get a JSON-RPC error, and none
 * of them breaks the backend. Each code is a MUST: base/index.md (Base Protocol profile) asks the
 * defined error for each, -32001 for the version and -32002 for the event (errors.md), and -32601
 * for a method (JSON-RPC 2.0, whose errors the draft's backends use).
 */
export const DEFINED_ERROR_PROBES: readonly Probe[] = [
  ...definedError(
    'AHP-VER-001',
    'unsupported-protocol-version',
    { ...ALLOW, protocolVersion: UNSUPPORTED_VERSION },
    { what: `a request with protocolVersion "${UNSUPPORTED_VERSION}"`, rule: RULES.unsupportedVersion },
    { code: -32001, rule: RULES.unsupportedVersionCode },
  ),
  ...definedError(
    'AHP-CORE-003',
    'unknown-event-type',
    { ...ALLOW, eventType: UNKNOWN_EVENT_TYPE },
    { what: `a request for event type "${UNKNOWN_EVENT_TYPE}"`, rule: RULES.unknownEvent },
    { code: -32002, rule: RULES.definedErrorCode },
  ),
  ...definedError(
    'AHP-RPC-002',
    'unknown-method',
    { send: 'method', method: UNKNOWN_METHOD },
    { what: `a request for method "${UNKNOWN_METHOD}"`, rule: RULES.unknownMethod },
    { code: -32601, rule: RULES.definedErrorCode },
  ),
];

/** The case name of each request flaw. */
const REQUEST_FLAW_NAMES: Readonly<Record<RequestFlaw, string>> = {
  'no-params': 'intercept-without-params',
  'no-event': 'intercept-params-without-event',
};

/**
 * Unprocessable requests (AHP-RPC-001): a hooks/intercept without params, and one whose params
 * hold no event, each get a JSON-RPC error and break nothing. No code is judged: the draft defines
 * none for them (its codes are for a version or an event type it does not support).
 */
export const UNPROCESSABLE_REQUEST_PROBES: readonly Probe[] = REQUEST_FLAWS.map((flaw) =>
  refused(
    'AHP-RPC-001',
    REQUEST_FLAW_NAMES[flaw],
    { ...ALLOW, flaw },
    { what: describeFrame({ ...ALLOW, flaw }), rule: RULES.unprocessableRequest },
  ),
);

/** The case name of each tool flaw. */
const TOOL_FLAW_NAMES: Readonly<Record<ToolFlaw, string>> = {
  'no-tool': 'tool-before-without-tool',
  'no-tool-input': 'tool-before-tool-without-input',
};

/**
 * Invalid tool.before events (AHP-RPC-001): one without a tool, and one whose tool has no input,
 * each get a JSON-RPC response with their id, an error or a decision (a lenient backend may decide
 * them), and the plain request after it is answered, by the same process on persistent stdio. A
 * policy that reads the tool input unchecked dies on them.
 */
export const TOOL_LESS_PROBES: readonly Probe[] = TOOL_FLAWS.map((flaw) => ({
  requirement: 'AHP-RPC-001',
  name: `${TOOL_FLAW_NAMES[flaw]}/gets-an-answer-with-its-id-and-the-backend-keeps-working`,
  rule: RULES.toolLessRequest,
  steps: [step.baseline(ALLOW), step.variant({ ...ALLOW, flaw }, 'reply'), step.variant(ALLOW)],
  sameProcess: true,
}));

/**
 * The two cases of a line no id can be read from, over stdio only: a JSON-RPC error with id null,
 * and the plain request after it answered, by the same process on persistent stdio (a MUST); and
 * its twin that asks for JSON-RPC 2.0's code (a SHOULD: its code table carries no MUST). http.md
 * gives no status for the answer to such a body, and the harness's HTTP exchange reads only a
 * 200's body, so an error sent with another status could not be read.
 */
function nullIdError(
  name: string,
  frame: FrameSpec,
  rule: Rule,
  code: { code: number; rule: Rule },
): Probe[] {
  const refusal: Refusal = { what: describeFrame(frame), rule };
  const common = {
    requirement: 'AHP-RPC-001',
    bindings: ['stdio-persistent', 'stdio-per_event'],
    steps: refusalSteps(frame),
    refusal,
  } as const;
  return [
    {
      ...common,
      name: `${name}/gets-an-error-with-id-null-and-the-backend-keeps-working`,
      rule,
      sameProcess: true,
    },
    { ...common, name: `${name}/error-code:${code.code}`, rule: code.rule, errorCode: code.code },
  ];
}

/** A line that is not JSON (AHP-RPC-001): the code due is -32700 Parse error. */
export const PARSE_ERROR_PROBES: readonly Probe[] = nullIdError(
  'line-not-json',
  { send: 'unparsable' },
  RULES.parseError,
  { code: -32700, rule: RULES.parseErrorCode },
);

/**
 * Lines that are JSON but no JSON-RPC Request object (AHP-RPC-001), each with the code due, -32600
 * Invalid Request: an object whose method is a number and whose id is null (a loop that routes on
 * the method alone answers it -32601, as it would an unknown method), and the value null (a loop
 * that reads a member of what it parsed, unchecked, dies on it).
 */
export const INVALID_REQUEST_PROBES: readonly Probe[] = [
  ...nullIdError(
    'line-not-a-request',
    { send: 'invalid-request', shape: 'method-not-a-string' },
    RULES.invalidRequest,
    { code: -32600, rule: RULES.invalidRequestCode },
  ),
  ...nullIdError('line-json-null', { send: 'invalid-request', shape: 'null' }, RULES.invalidRequest, {
    code: -32600,
    rule: RULES.invalidRequestCode,
  }),
];
