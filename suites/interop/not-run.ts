/**
 * Why a scenario this runner does not run does not apply to a harness driven through the driver
 * protocol, in one line, with the requirement its case is listed under. Derived from the
 * scenario's data (its category, its step operations, the authors' own inapplicability), so a
 * new scenario of a known kind needs no entry. Pure.
 */
import type { CatalogueScenario, LifecycleScenario } from './format.js';
import type { InteropSet } from './load.js';
import { lifecycleNotRun } from './lifecycle.js';
import { notificationNotRun } from './notification.js';

export interface NotRun {
  requirement: string;
  why: string;
}

function lifecycleReason(scenario: LifecycleScenario, set: InteropSet['set']): NotRun {
  const upstream =
    scenario.inapplicableReason === undefined ? '' : ` (the authors note: ${scenario.inapplicableReason})`;
  return {
    requirement: 'AHP-COMP-001',
    why: `${lifecycleNotRun(scenario) ?? `this runner has no translation for its steps in ${set}`}${upstream}`,
  };
}

function catalogueReason(scenario: CatalogueScenario): NotRun {
  return {
    requirement: 'AHP-RPC-002',
    why: notificationNotRun(scenario) ?? 'this runner has no translation for it',
  };
}

/** The reason a scenario of `set` is not run. */
export function notRunReason(set: InteropSet['set'], scenario: InteropSet['scenarios'][number]): NotRun {
  if (set === 'catalogue-scenarios') return catalogueReason(scenario as CatalogueScenario);
  if (set === 'lifecycle-scenarios' || set === 'observation-chain-scenarios') {
    return lifecycleReason(scenario as LifecycleScenario, set);
  }
  return { requirement: 'AHP-DEC-001', why: 'this runner has no translation for it' };
}
