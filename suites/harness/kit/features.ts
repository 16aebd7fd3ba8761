/**
 * Which driver features a case needs, and why it is `untested` when the driver lacks one. Pure.
 */
import type { InitializeResult, KnownFeature } from '../../driver/index.js';
import type { HarnessCase } from './case-model.js';
import type { HarnessTransport } from './timing.js';

const TRANSPORT_FEATURE: Readonly<Record<HarnessTransport, KnownFeature>> = {
  'stdio-persistent': 'stdioPersistent',
  'stdio-per_event': 'stdioPerEvent',
  http: 'http',
};

/** Every feature the case needs: its transport's, its own, and those its data implies. */
export function neededFeatures(testCase: HarnessCase): KnownFeature[] {
  const needs = new Set<KnownFeature>([TRANSPORT_FEATURE[testCase.transport], ...(testCase.needs ?? [])]);
  if (testCase.auth !== undefined) needs.add('tokenEnv');
  if (testCase.observe) needs.add('observe');
  if (testCase.retries !== undefined) needs.add('retries');
  for (const step of [testCase, ...(testCase.then ?? [])]) {
    if (step.invoke?.budgetMs !== undefined) needs.add('budget');
    if (step.invoke?.cancelAfterMs !== undefined) needs.add('cancel');
  }
  return [...needs];
}

/** Why the driver cannot run the case, or undefined when it can. */
export function missingFeature(testCase: HarnessCase, info: InitializeResult): string | undefined {
  const binding = testCase.transport === 'http' ? 'http' : 'stdio';
  if (!info.bindings.includes(binding)) return `the driver does not declare the ${binding} binding`;
  const missing = neededFeatures(testCase).filter((f) => info.features[f] !== true);
  if (missing.length === 0) return undefined;
  return `the driver does not announce ${missing.map((f) => `features.${f}`).join(', ')}`;
}
