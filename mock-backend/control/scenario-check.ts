/**
 * Scenario validation at the library and control boundaries: the same parser and the same one
 * sentence as scenario files, so a suite's typo reads like a CLI user's.
 */
import type { Scenario } from '../model.js';
import { parseScenarioValue } from '../scenario.js';
import type { ScenarioValidator } from './control-routes.js';

/** A scenario handed to the library or the control API was invalid; the message is one sentence. */
export class InvalidScenarioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidScenarioError';
  }
}

/** The control server's validator for `PUT /scenario`. */
export const controlScenarioValidator: ScenarioValidator = (value) => {
  const parsed = parseScenarioValue(value, 'sent to PUT /scenario');
  return parsed.ok ? parsed : { ok: false, message: parsed.error.message };
};

/** The scenario, validated; throws InvalidScenarioError with the parser's sentence. */
export function checkedScenario(value: Scenario, source = 'passed to the mock backend library'): Scenario {
  const parsed = parseScenarioValue(value, source);
  if (!parsed.ok) throw new InvalidScenarioError(parsed.error.message);
  return parsed.scenario;
}
