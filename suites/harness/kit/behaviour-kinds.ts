/**
 * The mock behaviours a case uses, by kind (`hang`, `delay`, `rpc-error`...): what `explain` lists
 * as the behaviours that trigger a requirement, read from the case's own data so that no list of
 * them is kept by hand. Pure.
 */
import type { Behaviour } from '../../../mock-backend/index.js';
import type { HarnessCase } from './case-model.js';

/** Every kind in `behaviour`, itself first, then those it wraps, in order of appearance. */
export function behaviourKinds(behaviour: Behaviour): string[] {
  const kinds: string[] = [behaviour.kind];
  const inner: Behaviour[] = [];
  switch (behaviour.kind) {
    case 'delay':
      inner.push(behaviour.then);
      break;
    case 'sequence':
      inner.push(...behaviour.steps, ...(behaviour.then ? [behaviour.then] : []));
      break;
    case 'probability':
      inner.push(behaviour.behaviour, behaviour.otherwise);
      break;
    case 'exit':
    case 'signal':
      if (behaviour.reply) inner.push(behaviour.reply);
      break;
    default:
      break;
  }
  return [...new Set([...kinds, ...inner.flatMap(behaviourKinds)])];
}

/**
 * The kinds of every behaviour a harness case hands the mock (its calls, its observer, its leading
 * rules), then the stdio process settings it uses (`process:ignoreSigterm`).
 */
export function caseBehaviourKinds(testCase: HarnessCase): string[] {
  const behaviours: Behaviour[] = [
    testCase.behaviour,
    ...(testCase.then ?? []).map((step) => step.behaviour),
    ...(testCase.observe ? [testCase.observe.behaviour] : []),
    ...(testCase.mock?.rules ?? []).map((rule) => rule.behaviour),
  ];
  const settings = Object.keys(testCase.mock?.process ?? {}).map((key) => `process:${key}`);
  return [...new Set([...behaviours.flatMap(behaviourKinds), ...settings])];
}
