/**
 * Which of our requirement IDs (protocol/requirements.ts) each tag of the authors' scenarios
 * exercises, and which rule of the harness rule catalogue (suites/harness/kit/rules.ts) a
 * departure under that requirement is reported as. One table each, so a scenario's requirements
 * are derived, never written per scenario. Pure.
 */
import type { RuleKey } from '../harness/kit/rules.js';

/**
 * Tag to requirement. Order matters: a scenario's first requirement is the first of this table
 * that one of its tags maps to. Tags that only group (`negative`) map to nothing.
 */
export const TAG_REQUIREMENTS: readonly (readonly [tag: string, requirement: string])[] = [
  // A response with one bad member is rejected whole, nothing of it applied.
  ['atomic-rejection', 'AHP-EDIT-001'],
  ['atomic', 'AHP-EDIT-001'],
  ['modify', 'AHP-EDIT-001'],
  ['merge', 'AHP-EDIT-001'],
  ['replace', 'AHP-EDIT-001'],
  ['application-invalid', 'AHP-EDIT-001'],
  // Effects outside the advertised authority.
  ['capability-invalid', 'AHP-CAP-001'],
  // A result must be an ordered array of valid effects.
  ['schema-invalid', 'AHP-DEC-001'],
  ['message', 'AHP-DEC-001'],
  ['inject', 'AHP-DEC-001'],
  ['return', 'AHP-DEC-001'],
  ['correlation-invalid', 'AHP-RPC-001'],
  // The serial pipeline: incoming state, precedence, flow, candidates.
  ['precedence', 'AHP-COMP-001'],
  ['serial-pipeline', 'AHP-COMP-001'],
  ['state', 'AHP-COMP-001'],
  ['omitted-state', 'AHP-COMP-001'],
  ['candidate', 'AHP-COMP-001'],
  ['flow', 'AHP-COMP-001'],
  ['finish-boundary', 'AHP-COMP-001'],
  ['deny', 'AHP-DEC-002'],
  ['no-effect', 'AHP-DEC-003'],
  ['permission', 'AHP-SEC-001'],
  ['allow', 'AHP-SEC-001'],
  ['ask', 'AHP-SEC-001'],
  ['permission-invalidation', 'AHP-SEC-001'],
  ['extensions', 'AHP-CORE-003'],
  ['negative', ''],
];

/** The rule a departure under each requirement is reported as. */
export const REQUIREMENT_RULES: Readonly<Record<string, RuleKey>> = {
  'AHP-EDIT-001': 'edit.outcome',
  'AHP-CAP-001': 'event.capabilities-enforceable',
  'AHP-DEC-001': 'valid-result',
  'AHP-RPC-001': 'rpc.envelope',
  'AHP-COMP-001': 'composition.chain',
  'AHP-DEC-002': 'host.deny-not-executed',
  'AHP-DEC-003': 'host.empty-list-no-grant',
  'AHP-SEC-001': 'host.never-weakened',
  'AHP-CORE-003': 'unknown-fields.ignored',
};

/** Tags this runner has no requirement for (so a new upstream tag is noticed, not dropped). */
export function unmappedTags(tags: readonly string[]): string[] {
  const known = new Set(TAG_REQUIREMENTS.map(([t]) => t));
  return tags.filter((t) => !known.has(t));
}

/**
 * The requirements of a scenario, first the primary one; a scenario whose tags map to none gets
 * AHP-DEC-001 (a valid result is applied as the draft says).
 */
export function scenarioRequirements(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const [tag, requirement] of TAG_REQUIREMENTS) {
    if (requirement !== '' && tags.includes(tag) && !out.includes(requirement)) out.push(requirement);
  }
  return out.length > 0 ? out : ['AHP-DEC-001'];
}

/** The rule a scenario's outcome is judged under: a whole rejection's, else its first requirement's. */
export function scenarioRule(requirements: readonly string[], rejection: boolean): RuleKey {
  if (rejection) return 'edit.outcome';
  return REQUIREMENT_RULES[requirements[0] as string] ?? 'valid-result';
}
