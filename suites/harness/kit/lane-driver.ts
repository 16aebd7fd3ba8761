/**
 * A lane's driver process as the suite relies on it (docs/driver-protocol.md, Lifecycle): `configure`
 * replaces the harness; after `close`, a `configure` may create a new harness or be refused.
 * A refusal there is the driver's right, not the harness's fault: the suite then starts a fresh
 * driver process for the lane and configures that one. Drivers that accept it cost no start.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { JsonValue } from '../../../protocol/json.js';
import type { SuiteSettings } from '../../common/case-meta.js';
import type { CaseContext } from '../../common/case.js';
import {
  DriverCallError,
  startDriver,
  type ConfigureParams,
  type ConfigureResult,
  type StartedDriver,
} from '../../driver/index.js';
import type { FixtureState } from './fixture.js';
import type { HarnessTarget } from './provided.js';
import { MISSING_TOKEN_ENV, TOKEN_ENV } from './registration.js';

/** The package version, sent as `suiteVersion`. */
export const SUITE_VERSION = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** The driver's environment: the target's, with the suite's token set and the "missing" one unset. */
export function driverEnv(target: HarnessTarget, token: string): Record<string, string> {
  const env: Record<string, string> = { ...(target.env ?? {}), [TOKEN_ENV]: token };
  delete env[MISSING_TOKEN_ENV];
  return env;
}

/** The bearer token of a lane: the target's, or a random one. */
export function laneToken(target: HarnessTarget): string {
  return target.token ?? randomBytes(18).toString('base64url');
}

/** Starts and initializes one driver process of the target. */
export function launchDriver(
  target: HarnessTarget,
  settings: SuiteSettings,
  token: string,
): Promise<StartedDriver> {
  return startDriver(
    target.command,
    { protocolVersion: settings.protocolVersion, suiteVersion: SUITE_VERSION },
    {
      timeoutScale: settings.timeoutScale,
      env: driverEnv(target, token),
      ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
    },
  );
}

/** Replaces the lane's driver with a fresh process (the old one is shut down first). */
async function restartDriver(state: FixtureState): Promise<void> {
  await state.client.dispose();
  const { client, info } = await launchDriver(state.target, state.settings, state.token);
  state.client = client;
  state.info = info;
  state.configured = undefined;
  state.harnessClosed = false;
}

/**
 * `configure` through the lane's driver. When the harness was closed and the driver answers with
 * a JSON-RPC error (as it may: docs/driver-protocol.md), a fresh driver gets the same call.
 */
export async function configureHarness(
  state: FixtureState,
  params: ConfigureParams,
  ctx?: CaseContext,
): Promise<ConfigureResult> {
  let answer: ConfigureResult;
  try {
    answer = await state.client.configure(params);
  } catch (error) {
    if (!state.harnessClosed || !(error instanceof DriverCallError)) throw error;
    ctx?.evidence({
      freshDriver:
        `the driver refused configure after close (${error.rpcCode}: ${error.rpcMessage}), so a fresh driver process was started` as JsonValue,
    });
    await restartDriver(state);
    answer = await state.client.configure(params);
  }
  if (answer.accepted) state.harnessClosed = false;
  return answer;
}

/** `close` through the lane's driver; the next `configure` may then need a fresh driver. */
export async function closeHarness(state: FixtureState): Promise<void> {
  state.harnessClosed = true;
  state.configured = undefined;
  await state.client.close();
}
