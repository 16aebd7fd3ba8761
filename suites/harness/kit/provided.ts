import { inject } from 'vitest';
import type { SuiteSettings } from '../../common/case-meta.js';
import { runSettings } from '../../common/settings.js';

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

declare module 'vitest' {
  interface ProvidedContext {
    ahpHarnessTarget: HarnessTarget;
  }
}

/** The target and settings of this run; throws a sentence when the suite was started without a target. */
export function providedTarget(): { target: HarnessTarget; settings: SuiteSettings } {
  const target = inject(HARNESS_TARGET_KEY) as HarnessTarget | undefined;
  const settings = runSettings();
  if (target === undefined || target.kind !== 'driver' || target.command.length === 0) {
    throw new Error(
      `the harness suite needs a target: run it through "ahp-conformance harness" (which provides "${HARNESS_TARGET_KEY}").`,
    );
  }
  return { target, settings };
}
