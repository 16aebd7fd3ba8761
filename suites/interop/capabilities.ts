/**
 * Whether the capabilities a harness advertised on a recorded request offer what a scenario
 * needs. A scenario's response is judged against the capabilities its request advertises: an
 * effect accepted there may be one the harness must reject, and the other way round, when the
 * harness advertised otherwise. So, per effect of the response, the harness's advertisement must
 * agree with the scenario's on everything that effect touches: its kind, the modify operation on
 * its target, the flow operation (and for a continue, the allowance), the inject options. Pure.
 */
import { isDeepStrictEqual } from 'node:util';
import { isJsonObject, type JsonObject, type JsonValue } from '../../protocol/json.js';

function effectsOf(capabilities: JsonObject | undefined): string[] {
  const effects = capabilities?.effects;
  return Array.isArray(effects) ? effects.filter((e): e is string => typeof e === 'string') : [];
}

function member(value: JsonValue | undefined, ...path: string[]): JsonValue | undefined {
  let at: JsonValue | undefined = value;
  for (const key of path) at = isJsonObject(at) ? at[key] : undefined;
  return at;
}

function flowOperations(capabilities: JsonObject | undefined): string[] {
  const ops = member(capabilities, 'flow', 'operations');
  return Array.isArray(ops) ? ops.filter((o): o is string => typeof o === 'string') : [];
}

const present = (offered: boolean) => (offered ? 'offers' : 'withholds');
const past = (offered: boolean) => (offered ? 'offered' : 'withheld');

/** One aspect both must agree on: its name and whether each offers it. */
interface Aspect {
  what: string;
  scenario: JsonValue | boolean | undefined;
  harness: JsonValue | boolean | undefined;
}

function aspectsOf(effect: JsonObject, scenario: JsonObject, harness: JsonObject | undefined): Aspect[] {
  const type = effect.type;
  if (typeof type !== 'string') return [];
  const kind: Aspect = {
    what: `the ${type} effect`,
    scenario: effectsOf(scenario).includes(type),
    harness: effectsOf(harness).includes(type),
  };
  if (kind.scenario !== true || kind.harness !== true) return [kind];
  if (type === 'modify' && typeof effect.target === 'string' && typeof effect.operation === 'string') {
    const at = [effect.target, effect.operation];
    return [
      {
        what: `modify ${effect.operation} of ${effect.target}`,
        scenario: member(scenario, 'modify', ...at) === true,
        harness: member(harness, 'modify', ...at) === true,
      },
    ];
  }
  if (type === 'flow' && typeof effect.operation === 'string') {
    const op: Aspect = {
      what: `flow ${effect.operation}`,
      scenario: flowOperations(scenario).includes(effect.operation),
      harness: flowOperations(harness).includes(effect.operation),
    };
    if (effect.operation !== 'continue' || op.scenario !== true || op.harness !== true) return [op];
    return [
      {
        what: 'the flow continuation allowance (flow.remainingContinuations)',
        scenario: member(scenario, 'flow', 'remainingContinuations'),
        harness: member(harness, 'flow', 'remainingContinuations'),
      },
    ];
  }
  if (type === 'inject') {
    return [{ what: 'the inject options', scenario: scenario.inject, harness: harness?.inject }];
  }
  return [];
}

function shown(value: JsonValue | boolean | undefined): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

/**
 * Why the harness's advertisement (`harness`, from a recorded request) does not offer what the
 * scenario's (`scenario`) does for `effects` (the response's effect list, any JSON), in one
 * sentence; undefined when they agree for every effect.
 */
export function capabilityDifference(
  scenario: JsonObject,
  harness: JsonObject | undefined,
  effects: JsonValue | undefined,
  which = "the scenario backend's request",
): string | undefined {
  if (!Array.isArray(effects)) return undefined;
  for (const effect of effects) {
    if (!isJsonObject(effect)) continue;
    for (const a of aspectsOf(effect, scenario, harness)) {
      if (isDeepStrictEqual(a.scenario, a.harness)) continue;
      if (typeof a.scenario === 'boolean' && typeof a.harness === 'boolean') {
        return `the scenario ${present(a.scenario)} ${a.what}, but the harness ${past(a.harness)} it on ${which}`;
      }
      return `the scenario advertises ${shown(a.scenario)} for ${a.what}, the harness ${shown(a.harness)} on ${which}`;
    }
  }
  return undefined;
}
