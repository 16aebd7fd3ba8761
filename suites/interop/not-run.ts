/**
 * Why a scenario this runner does not run does not apply to a harness driven through the driver
 * protocol, in one line, with the requirement its case is listed under. Derived from the
 * scenario's data (its category, its step operations, the authors' own inapplicability), so a
 * new scenario of a known kind needs no entry. Pure.
 */
import type { CatalogueScenario, LifecycleScenario } from './format.js';
import type { InteropSet } from './load.js';
import { lifecycleNotRun } from './lifecycle.js';

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
    why:
      scenario.category === 'lineage'
        ? 'it judges how a receiver of hooks/observe notifications checks event lineage (parents, causes); a harness only sends its own events and receives no notifications'
        : 'it judges which hooks/observe notifications a receiver accepts or refuses; a harness only sends notifications of its own events, it receives none',
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
