/**
 * What is wrong with one step of a backend case (a `StepFault`), and how it becomes a shared
 * `Finding`: the requirement it evidences, the rule it breaks (which groups it with the same
 * defect in other cases) and how fundamental it is. Pure.
 */
import { draftLocation, requirementById } from '../../protocol/requirements.js';
import { FINDING_RANK, type Finding, type FindingRank } from '../common/finding.js';
import { RULES, type Rule } from './rules.js';
import type { TransportFailure } from './frame-run.js';

/**
 * How far an exchange got before a fault: no usable reply at all (`transport`), a reply that is
 * not a valid JSON-RPC response to this request (`envelope`), a response of the wrong kind (an
 * error where a decision was due, or the reverse: `outcome`), or a well-formed result whose
 * content breaks a rule (`content`). A case is kept from judging only by faults that stop short
 * of what it reads (see `blocks` in `verdict.ts`).
 */
export type FaultStage = 'transport' | 'envelope' | 'outcome' | 'content';

/** One thing the backend did wrong at one step, tied to the requirement and rule it breaks. */
export interface StepFault {
  /** The requirement this evidences; undefined when nothing about the backend's conformance follows (we could not reach it). */
  requirement: string | undefined;
  /** The step, counted from 1. */
  step: number;
  stage: FaultStage;
  rule: Rule;
  /** How the rule is broken, when it can be broken in distinct ways (stable: no per-occurrence values). */
  way?: string;
  /** One line true of every occurrence; the rule's summary unless the way says more. */
  summary: string;
  /** This occurrence, with its specifics. */
  message: string;
  /** Output the backend wrote before this step and that this step only reported (not its own reply). */
  ambient?: true;
}

/** What is wrong with a banner or a log line on stdout, wherever it shows. */
export const NOISE_SUMMARY =
  'stdout carries lines that are not JSON-RPC messages (banners, logs): diagnostics belong on stderr';

/** How fundamental a fault of each stage is. */
export const STAGE_RANK: Readonly<Record<FaultStage, FindingRank>> = {
  transport: FINDING_RANK.framing,
  envelope: FINDING_RANK.envelope,
  outcome: FINDING_RANK.decision,
  content: FINDING_RANK.decision,
};

interface TransportFault {
  requirement: string | undefined;
  rule: Rule;
  way: string;
  summary: string;
}

const fault = (requirement: string, rule: Rule, way: string, summary: string): TransportFault => ({
  requirement,
  rule,
  way,
  summary,
});
const unreachable = (way: string): TransportFault => ({
  requirement: undefined,
  rule: RULES.httpExchange,
  way,
  summary: 'the backend could not be reached',
});
const STDOUT = (way: string, summary: string) => fault('AHP-STDIO-001', RULES.stdout, way, summary);
const EXIT = (way: string, summary: string) => fault('AHP-STDIO-001', RULES.stdioLifecycle, way, summary);
const HTTP = (way: string, summary: string) => fault('AHP-HTTP-001', RULES.httpExchange, way, summary);
const BYTES = (way: string, summary: string) => fault('AHP-RPC-001', RULES.jsonRpcBytes, way, summary);

/**
 * What each transport failure code evidences. Framing, stdout discipline and the lifecycles
 * belong to the stdio binding; statuses and media types to the HTTP binding; bytes that are not
 * one UTF-8 JSON value to the JSON-RPC rule; a missed deadline to liveness (answering a request
 * at all). Launch, auth and our own close say nothing about conformance.
 */
export const TRANSPORT_FAULTS: Readonly<Record<string, TransportFault>> = {
  'stdio.framing.invalid-utf8': BYTES('invalid-utf8', 'a stdout line is not valid UTF-8'),
  'stdio.framing.not-json': STDOUT('non-protocol-line', NOISE_SUMMARY),
  'stdio.framing.multi-line': STDOUT('multi-line', 'a message is spread over several stdout lines'),
  'stdio.framing.empty-line': STDOUT('empty-line', 'stdout carries an empty line'),
  'stdio.framing.frame-too-large': STDOUT('frame-too-large', 'a stdout line is longer than the frame cap'),
  'stdio.unsolicited-output': STDOUT(
    'unsolicited-output',
    'the backend wrote a message on stdout while no request was outstanding',
  ),
  'stdio.extra-reply': fault(
    'AHP-STDIO-001',
    RULES.perEventReply,
    'extra-reply',
    'a per_event backend wrote more than one message',
  ),
  'stdio.no-reply': EXIT('no-reply', 'the backend exited without a reply'),
  'stdio.exit-nonzero': EXIT('exit-nonzero', 'the backend exited with a non-zero status'),
  'stdio.signal': EXIT('signal', 'the backend was killed by a signal'),
  'stdio.exit-before-reply': EXIT('exit-before-reply', 'the backend exited before its reply'),
  'stdio.stdout-closed': EXIT('stdout-closed', 'the backend closed stdout'),
  'stdio.write-failed': EXIT('stdin-closed', 'the backend stopped reading stdin'),
  'stdio.launch-failed': unreachable('launch-failed'),
  'stdio.closed': unreachable('closed'),
  'http.status': HTTP('status', 'a request got an HTTP status other than 200'),
  'http.redirect': HTTP('redirect', 'a request was answered with a redirect'),
  'http.media-type': HTTP('media-type', 'a reply has no JSON media type'),
  'http.notify-body': fault(
    'AHP-HTTP-001',
    RULES.httpNotification,
    'body',
    'a notification was answered with a body',
  ),
  'http.connection-refused': HTTP('connection-refused', 'the backend refused the connection'),
  'http.connection-reset': HTTP('connection-reset', 'the backend cut the connection off'),
  'http.connection-failed': HTTP('connection-failed', 'the connection to the backend failed'),
  'http.body-not-utf8': BYTES('invalid-utf8', 'a reply body is not valid UTF-8'),
  'http.body-not-json': BYTES('not-json', 'a reply body is not JSON'),
  'http.body-too-large': BYTES('too-large', 'a reply body is larger than the cap'),
  'http.closed': unreachable('closed'),
  deadline: fault(
    'AHP-RPC-002',
    RULES.requestAnswered,
    'deadline',
    'a request got no reply within the deadline',
  ),
};

/** Failure codes that report output written before the step, not the step's own reply. */
const AMBIENT_CODES = new Set(['stdio.unsolicited-output']);

/** The fault a transport failure at step index `step` shows. */
export function transportFault(step: number, failure: TransportFailure): StepFault {
  const known = Object.hasOwn(TRANSPORT_FAULTS, failure.code) ? TRANSPORT_FAULTS[failure.code] : undefined;
  return {
    requirement: known?.requirement,
    step: step + 1,
    stage: 'transport',
    rule: known?.rule ?? RULES.httpExchange,
    way: known?.way ?? failure.code,
    summary: known?.summary ?? 'the backend could not be reached',
    message: `${failure.code}: ${failure.detail}`,
    ...(AMBIENT_CODES.has(failure.code) ? { ambient: true as const } : {}),
  };
}

/** The rules content and envelope violations fall under, by the requirement they carry. */
const VIOLATION_RULES: Readonly<Record<string, Rule>> = {
  'AHP-RPC-001': RULES.jsonRpcResponse,
  'AHP-VER-001': RULES.resultVersion,
  'AHP-CAP-001': RULES.advertisedOnly,
  'AHP-DEC-001': RULES.effectList,
  'AHP-CONTENT-001': RULES.returnedContent,
  'AHP-EDIT-001': RULES.returnedEdit,
};

/** The rule a protocol violation of `requirement` breaks: ours, or the catalogue's sentence. */
export function violationRule(requirement: string): Rule {
  const ours = VIOLATION_RULES[requirement];
  if (ours) return ours;
  const known = requirementById(requirement);
  const place = draftLocation(requirement);
  return {
    key: `requirement.${requirement}`,
    summary: `a reply breaks ${requirement}${known ? `: ${known.summary}` : ''}`,
    basis: {
      document: place?.document ?? known?.reference ?? '',
      anchor: place?.anchor ?? requirement,
      level: known?.level ?? 'MUST',
      rule: known?.summary ?? '',
    },
  };
}

/** A violation path without its indexes (`$.result.effects[0].type` -> `$.result.effects[].type`). */
export function stablePath(path: string): string {
  return path.replace(/\[\d+\]/g, '[]');
}

/** The shared finding of a fault that has a requirement, with `message` as its occurrence text. */
export function toFinding(f: StepFault & { requirement: string }, message: string): Finding {
  return {
    rule: f.rule.key,
    ...(f.way === undefined ? {} : { way: f.way }),
    requirement: f.requirement,
    level: f.rule.basis.level,
    basis: { ...f.rule.basis },
    rank: STAGE_RANK[f.stage],
    summary: f.summary,
    message,
  };
}

/** True when the fault names the requirement it evidences (only those can be findings). */
export function hasRequirement(f: StepFault): f is StepFault & { requirement: string } {
  return f.requirement !== undefined;
}
