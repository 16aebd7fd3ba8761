import { inject } from 'vitest';
import type { SuiteSettings } from './case-meta.js';
import { scaledMs } from './scale.js';

/** The `provide` key of the suite settings (the harness and backend suites share it). */
export const SETTINGS_KEY = 'ahpSettings';

declare module 'vitest' {
  interface ProvidedContext {
    ahpSettings: SuiteSettings;
  }
}

/** Settings when the runner provides none (a file run directly by vitest). */
export const DEFAULT_SETTINGS: SuiteSettings = {
  timeoutScale: 1,
  seed: 1,
  runs: 50,
  protocolVersion: 'draft',
};

/**
 * The settings of this run. Read at collection time too, where `list` collects without a
 * runner's settings, hence the default.
 */
export function runSettings(): SuiteSettings {
  return (inject(SETTINGS_KEY) as SuiteSettings | undefined) ?? DEFAULT_SETTINGS;
}

/** The run's timeout scale: every real-time wait and tolerance of a case is multiplied by it. */
export function runTimeoutScale(): number {
  return runSettings().timeoutScale;
}

/** `ms` multiplied by the run's timeout scale (rounded as `scaledMs` rounds). */
export function scaled(ms: number): number {
  return scaledMs(ms, runTimeoutScale());
}

/**
 * The unscaled bound of a suite file's setup and teardown hooks (starting the driver's lanes and
 * the mocks, loading a harness library, stopping them again). Vitest's own default (10 s) is not
 * scaled, so a busy machine failed a hook that was only slow.
 */
export const HOOK_TIMEOUT_MS = 60_000;

/** `HOOK_TIMEOUT_MS` scaled by the run's timeout scale: the timeout every suite hook is given. */
export function hookTimeoutMs(): number {
  return scaled(HOOK_TIMEOUT_MS);
}
