import { inject } from 'vitest';
import type { SuiteSettings } from '../../kit/case-meta.js';

/** The harness under test, as the CLI hands it to the suite files through vitest's `provide`. */
export interface HarnessTarget {
  kind: 'driver';
  /** The driver's argv (never a shell string). */
  command: string[];
  /** What the report calls the target (the command, redacted of secrets). */
  label: string;
  /** The driver's whole environment (the CLI passes its own); the suite adds its test token to it. */
  env?: Record<string, string>;
  /** Working directory of the driver. */
  cwd?: string;
  /** The bearer token put in the driver's environment (the CLI makes one so reports can redact it). */
  token?: string;
}

/** The `provide` key of the harness target. */
export const HARNESS_TARGET_KEY = 'ahpHarnessTarget';
/** The `provide` key of the suite settings (shared with the backend suites). */
export const SETTINGS_KEY = 'ahpSettings';

declare module 'vitest' {
  interface ProvidedContext {
    ahpHarnessTarget: HarnessTarget;
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

/** The target and settings of this run; throws a sentence when the suite was started without a target. */
export function providedTarget(): { target: HarnessTarget; settings: SuiteSettings } {
  const target = inject(HARNESS_TARGET_KEY) as HarnessTarget | undefined;
  const settings = (inject(SETTINGS_KEY) as SuiteSettings | undefined) ?? DEFAULT_SETTINGS;
  if (target === undefined || target.kind !== 'driver' || target.command.length === 0) {
    throw new Error(
      `the harness suite needs a target: run it through "ahp-conformance harness" (which provides "${HARNESS_TARGET_KEY}").`,
    );
  }
  return { target, settings };
}
