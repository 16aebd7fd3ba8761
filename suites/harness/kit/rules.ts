/**
 * The harness suite's rule catalogue: every rule a harness check can find broken, by a stable key,
 * with the requirement it belongs to, the sentence of the published draft it rests on (`Basis`:
 * document, anchor, level from the sentence, our paraphrase), how fundamental it is and a summary
 * true of every occurrence. Checks never spell a basis themselves: they name a key here and add
 * the occurrence's specifics, so one rule broken the same way is one problem in every case.
 * The entries live in `rules-*.ts` by area; this module merges them and builds findings. Pure.
 */
import { CaseFailure, type Finding, type FindingRank } from '../../common/finding.js';
import { OUTCOME_RULES } from './rules-outcome.js';
import { FAMILY_RULES } from './rules-families.js';
import { WIRE_RULES } from './rules-wire.js';
import type { HarnessRule } from './rules-basis.js';

export type { HarnessRule } from './rules-basis.js';

/** Every harness rule, by key. */
export const HARNESS_RULES = { ...WIRE_RULES, ...OUTCOME_RULES, ...FAMILY_RULES } as const;

/** The key of a harness rule. */
export type RuleKey = keyof typeof HARNESS_RULES;

/** The rule of a key. */
export function harnessRule(key: RuleKey): HarnessRule {
  return HARNESS_RULES[key];
}

/** True for the hygiene rules that hold in every call, judged only by their own requirement's cases. */
export function isCrossCutting(key: string): boolean {
  return (HARNESS_RULES as Record<string, HarnessRule | undefined>)[key]?.crossCutting === true;
}

/** How a finding departs from its rule's defaults. */
export interface FindingOptions {
  /** How the rule is broken, for a rule with several ways (a key of its `ways`, or stable text). */
  way?: string;
  /** A rank other than the rule's (an audit finding of an outcome rule is a report). */
  rank?: FindingRank;
}

/** A finding of rule `key` with this occurrence's `message`. */
export function finding(key: RuleKey, message: string, options: FindingOptions = {}): Finding {
  const rule: HarnessRule = HARNESS_RULES[key];
  const { way } = options;
  return {
    rule: key,
    ...(way === undefined ? {} : { way }),
    requirement: rule.requirement,
    level: rule.basis.level,
    basis: rule.basis,
    rank: options.rank ?? rule.rank,
    summary: (way === undefined ? undefined : rule.ways?.[way]) ?? rule.summary,
    message,
  };
}

/** One finding of `key` per message (a check that lists occurrences). */
export function findingsOf(key: RuleKey, messages: readonly string[], options?: FindingOptions): Finding[] {
  return messages.map((m) => finding(key, m, options));
}

/** Fails the case with one finding of `key` per problem, when there is any. */
export function failOn(key: RuleKey, problems: readonly string[]): void {
  if (problems.length > 0) throw new CaseFailure(findingsOf(key, problems));
}

/** The messages of `findings`, in order (what a case's error lists). */
export function messagesOf(findings: readonly Finding[]): string[] {
  return findings.map((f) => f.message);
}

/** The same findings with `prefix` before each message (the call or frame they were found in). */
export function prefixed(findings: readonly Finding[], prefix: string): Finding[] {
  return prefix === '' ? [...findings] : findings.map((f) => ({ ...f, message: `${prefix}${f.message}` }));
}
