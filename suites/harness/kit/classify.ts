/**
 * What a mock behaviour does to a harness's call, per transport: a valid answer, an explicit deny,
 * or an operational failure of one of the twelve classes (with the classes a conforming harness
 * may report for it). The table follows the failure-semantics text and the decisions of docs/architecture.md; where the text leaves
 * the class open (a stdio backend closing its stdout), every defensible class is accepted. Pure.
 */
import { checkEffects } from '../../../protocol/effects.js';
import type { FailureClass } from '../../../protocol/failure-classes.js';
import type { JsonValue } from '../../../protocol/json.js';
import { AHP_ERROR_CODES, PROTOCOL_VERSION } from '../../../protocol/wire-types.js';
import type { Behaviour } from '../../../mock-backend/index.js';
import type { RuleKey } from './rules.js';
import type { HarnessTransport } from './timing.js';

/**
 * How a behaviour settles one intercept. `rule` names the rule the settlement rests on when it is
 * not the kind's own (a valid answer: `valid-result`; an explicit deny: `explicit-deny`; an
 * operational failure: `failure-policy`), such as unknown result fields that must change nothing.
 */
export type Provoked =
  | { kind: 'answer'; because: string; rule?: RuleKey }
  | { kind: 'deny'; reason: string; because: string; rule?: RuleKey }
  | {
      kind: 'failure';
      classes: FailureClass[];
      because: string;
      unadvertised?: string[];
      rule?: RuleKey;
      /**
       * A reply comes after the deadline: a harness that took it broke the deadline
       * (`deadline.enforced`), not the policy.
       */
      lateReply?: true;
    };

/** The rule a provoked outcome rests on. */
export function provokedRule(provoked: Provoked): RuleKey {
  if (provoked.rule !== undefined) return provoked.rule;
  if (provoked.kind === 'answer') return 'valid-result';
  return provoked.kind === 'deny' ? 'explicit-deny' : 'failure-policy';
}

/** What classification needs to know besides the behaviour. */
export interface ClassifyContext {
  transport: HarnessTransport;
  /** The subscription's `timeoutMs`. */
  timeoutMs: number;
  /** Whether the reply is held until after the deadline (`late` steps). */
  late: boolean;
}

/** The behaviour cannot be classified from data alone: the case must state its expectation. */
export class UnclassifiedBehaviour extends Error {
  constructor(kind: string, why: string) {
    super(`a "${kind}" behaviour ${why}; give the case an explicit "expect"`);
    this.name = 'UnclassifiedBehaviour';
  }
}

/** The deny reason the mock sends for a `deny` behaviour without one (mock-backend's default). */
export const MOCK_DEFAULT_DENY_REASON = 'Denied by the mock backend scenario.';

/** The advertisement every Tool Interception harness must make at tool.before (AHP-CAP-002). */
const MINIMAL_ADVERTISEMENT = { effects: ['deny'] };

const failure = (classes: FailureClass[], because: string): Provoked => ({
  kind: 'failure',
  classes,
  because,
});

/** Classifies an effect list as a harness advertising only `deny` would see it. */
export function classifyEffects(effects: JsonValue): Provoked {
  // An `effects` member that is no list is read as malformed effects or as the required list missing.
  if (!Array.isArray(effects)) return failure(['invalid-effects', 'missing-fields'], 'effects is not a list');
  const violations = checkEffects(effects, { eventType: 'tool.before', capabilities: MINIMAL_ADVERTISEMENT });
  if (violations.length > 0) {
    const onlyUnadvertised = violations.every((v) => v.problem === 'unadvertised');
    const because = `effects rejected: ${violations[0]?.message ?? ''}`;
    if (onlyUnadvertised && Array.isArray(effects)) {
      const types = violations.map((v) => (effects[v.index] as { type: string }).type);
      return { kind: 'failure', classes: ['invalid-effects'], because, unadvertised: [...new Set(types)] };
    }
    return failure(['invalid-effects'], because);
  }
  const list = effects as Array<{ type: string; reason?: string }>;
  if (list.length === 0) return { kind: 'answer', because: 'a valid empty effect list' };
  const deny = list.find((e) => e.type === 'deny');
  if (deny) return { kind: 'deny', reason: deny.reason ?? '', because: 'a valid explicit deny' };
  throw new UnclassifiedBehaviour('respond', 'with accepted non-deny effects settles by composition rules');
}

/** A reply held past the deadline: deadline exceeded, or a late response, whichever the harness sees. */
const lateReply = (): Provoked => ({
  kind: 'failure',
  classes: ['deadline-exceeded', 'late-response'],
  because: 'the reply comes after the deadline',
  lateReply: true,
});

/** Classifies one behaviour on one transport. */
export function classifyBehaviour(b: Behaviour, ctx: ClassifyContext): Provoked {
  if (ctx.late) return lateReply();
  const stdio = ctx.transport !== 'http';
  const perEvent = ctx.transport === 'stdio-per_event';
  switch (b.kind) {
    case 'respond': {
      if (b.omit?.includes('protocolVersion') || b.omit?.includes('effects')) {
        return failure(['missing-fields'], `the result lacks ${b.omit.join(', ')}`);
      }
      if (b.protocolVersion !== undefined && b.protocolVersion !== PROTOCOL_VERSION) {
        return failure(['unsupported'], `the result claims protocolVersion ${b.protocolVersion}`);
      }
      return classifyEffects(b.effects ?? []);
    }
    case 'pretty':
      return stdio ? failure(['malformed'], 'a multi-line frame on stdio') : classifyEffects(b.effects ?? []);
    case 'deny':
      return { kind: 'deny', reason: b.reason ?? MOCK_DEFAULT_DENY_REASON, because: 'a valid explicit deny' };
    case 'rpc-error':
      // -32001 and -32002 are JSON-RPC error responses that say the version or event is
      // unsupported (errors.md): the failure-semantics list has a class for each and ranks neither.
      return b.code === AHP_ERROR_CODES.unsupportedProtocolVersion ||
        b.code === AHP_ERROR_CODES.unsupportedEvent
        ? failure(['unsupported', 'jsonrpc-error'], `JSON-RPC error ${b.code}`)
        : failure(['jsonrpc-error'], `JSON-RPC error ${b.code}`);
    case 'mismatched-id':
      // A persistent backend's replies are correlated by id (stdio.md, "Persistent lifecycle"):
      // one that answers no pending request may be ignored, the call then ending at its deadline.
      return ctx.transport === 'stdio-persistent'
        ? failure(['id-mismatch', 'deadline-exceeded'], 'the reply id is not the request id')
        : failure(['id-mismatch'], 'the reply id is not the request id');
    case 'not-jsonrpc':
    case 'malformed-json':
    case 'malformed-utf8':
      return failure(['malformed'], `${b.kind} reply`);
    case 'reset':
      return stdio
        ? failure(['process', 'connection'], 'the backend closed its stdout')
        : failure(['connection'], 'the connection was reset');
    case 'hang':
      return failure(['deadline-exceeded'], 'the backend never answers');
    case 'silent':
      // The stdio mock writes nothing and exits only at stdin EOF: a per_event harness that never
      // closes stdin meets its deadline instead, which the EOF check names (kit/per-event-eof.ts).
      if (perEvent) {
        return failure(
          ['process'],
          'the per_event backend reads its message, writes no reply and exits 0 at stdin EOF',
        );
      }
      if (stdio)
        return failure(['deadline-exceeded'], 'the persistent backend reads the request and never answers');
      return failure(['http-status'], 'HTTP 202 with no body answers a request');
    case 'delay':
      if (b.ms >= ctx.timeoutMs) return lateReply();
      if (b.ms * 2 <= ctx.timeoutMs) return classifyBehaviour(b.then, ctx);
      throw new UnclassifiedBehaviour('delay', 'too close to the deadline is a race');
    case 'sequence': {
      const first = b.steps[0] ?? b.then;
      if (!first) throw new UnclassifiedBehaviour('sequence', 'has no steps');
      return classifyBehaviour(first, ctx);
    }
    case 'exit':
      if (b.reply !== undefined && !perEvent) {
        throw new UnclassifiedBehaviour('exit', 'after a reply on a persistent backend races the reply');
      }
      if (b.code === 0 && b.reply !== undefined) return classifyBehaviour(b.reply, ctx);
      return failure(
        ['process'],
        b.reply === undefined
          ? `the backend exits with code ${b.code} without a reply`
          : `the backend replies, then exits with code ${b.code}`,
      );
    case 'signal':
      if (b.reply !== undefined) throw new UnclassifiedBehaviour('signal', 'after a reply races the reply');
      return failure(['process'], `the backend dies by ${b.signal}`);
    case 'http-status':
      if (b.status === 200) throw new UnclassifiedBehaviour('http-status', 'of 200 depends on its body');
      return failure(['http-status'], `HTTP status ${b.status}`);
    case 'http-redirect':
      return failure(['http-status'], 'a redirect, which is never followed');
    case 'http-unauthorized':
      // A 401 is an authentication failure and a non-success HTTP response (failure.md, Failure
      // classes); the draft names it under neither alone.
      return failure(['auth', 'http-status'], 'HTTP 401 that the harness cannot resolve');
    case 'wrong-content-type':
      return failure(['malformed'], 'a 200 whose media type is not JSON');
    case 'upload-receipt':
    case 'raw':
    case 'slow-body':
    case 'probability':
    case 'twice':
      throw new UnclassifiedBehaviour(b.kind, 'has no fixed meaning');
  }
}
