/**
 * Rule matching: the first rule (in order) whose match holds and whose `times` is not used up.
 */
import { isJsonObject, type JsonValue } from '../protocol/json.js';
import type { DecodedFrame } from './engine-inbound.js';
import type { FieldPredicate, Match, NumberMatch, Rule, Transport } from './model.js';

/** The facts of one frame a match is tested against. */
export interface MatchFacts {
  frame: DecodedFrame;
  attempt: number;
  delivery: number;
  transport: Transport;
}

/** Index of the deciding rule, or null. `fired[i]` counts earlier firings of rule i. */
export function findRule(rules: readonly Rule[], fired: readonly number[], facts: MatchFacts): number | null {
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i] as Rule;
    if (rule.times !== undefined && (fired[i] ?? 0) >= rule.times) continue;
    if (matches(rule.match ?? {}, facts)) return i;
  }
  return null;
}

/** True when every given field of the match holds for the frame. */
export function matches(match: Match, facts: MatchFacts): boolean {
  const { frame } = facts;
  if (frame.kind === 'unparseable') return false;
  const wanted = match.message ?? 'request';
  if (wanted !== 'any' && wanted !== frame.kind) return false;
  if (match.method !== undefined && match.method !== frame.method) return false;
  if (match.eventType !== undefined && match.eventType !== frame.eventType) return false;
  if (match.toolName !== undefined && match.toolName !== frame.toolName) return false;
  if (match.transport !== undefined && match.transport !== facts.transport) return false;
  if (match.attempt !== undefined && !numberMatches(match.attempt, facts.attempt)) return false;
  if (match.delivery !== undefined && !numberMatches(match.delivery, facts.delivery)) return false;
  if (match.identity !== undefined && !identifiesAs(frame, match.identity)) return false;
  return (match.fields ?? []).every((p) => fieldMatches(p, frame.event));
}

/**
 * The values a frame identifies itself by: its JSON-RPC id, `event.id`, `event.call.id` and the
 * older `event.tool.callId`, those that are strings. Which of them a harness fills in, and where it
 * puts the call id, is for the conformance cases of those fields to judge, not for matching.
 */
export function frameIdentities(frame: DecodedFrame): string[] {
  const values = [
    frame.id,
    frame.eventId,
    readPath(frame.event, 'call.id'),
    readPath(frame.event, 'tool.callId'),
  ];
  return values.filter((v): v is string => typeof v === 'string');
}

function identifiesAs(frame: DecodedFrame, wanted: readonly string[]): boolean {
  return frameIdentities(frame).some((value) => wanted.includes(value));
}

function numberMatches(want: NumberMatch, actual: number): boolean {
  if (typeof want === 'number') return actual === want;
  return (want.min === undefined || actual >= want.min) && (want.max === undefined || actual <= want.max);
}

/** Reads a dotted path (`tool.input.command`, `items.0.id`) under the event; undefined when absent. */
export function readPath(root: JsonValue | undefined, path: string): JsonValue | undefined {
  let node: JsonValue | undefined = root;
  for (const key of path.split('.')) {
    if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)];
    else if (isJsonObject(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

function fieldMatches(predicate: FieldPredicate, event: JsonValue | undefined): boolean {
  const value = readPath(event, predicate.path);
  if (value === undefined) return false;
  if ('equals' in predicate) return jsonEqual(value, predicate.equals);
  const needle = predicate.contains;
  if (typeof value === 'string') return typeof needle === 'string' && value.includes(needle);
  if (Array.isArray(value)) return value.some((item) => jsonEqual(item, needle));
  return false;
}

/** Deep equality of JSON values (object key order ignored). */
export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i] as JsonValue));
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k] as JsonValue, b[k] as JsonValue))
    );
  }
  return false;
}
