/**
 * Whether the run's target is the bundled reference harness, which these cases can also load as a
 * library; any other driver cannot show what they need (caller-owned transports and auth
 * providers, slow or failing token providers), so its cases are `untested`.
 */
import { basename } from 'node:path';
import type { HarnessTarget } from '../kit/provided.js';

/** Script names of the bundled reference driver (the bin, and the dist bundle it may run). */
const REFERENCE_DRIVER_SCRIPTS = new Set(['ahp-reference-driver.mjs', 'reference-driver.mjs']);

/** Why the target cannot run in-process cases, or undefined when it is the reference harness. */
export function inProcessUnavailable(target: HarnessTarget | undefined): string | undefined {
  const script = target?.command.find((arg) => arg.endsWith('.mjs') || arg.endsWith('.js'));
  if (script !== undefined && REFERENCE_DRIVER_SCRIPTS.has(basename(script))) return undefined;
  return 'this case needs the harness in-process (injected transports, token providers); the driver protocol cannot hand those to a driver';
}
