/**
 * The per-file fixture of the harness suite: ONE driver (initialized once; its features decide
 * what is `untested`) and the file's mocks, and `run(case)`: load the case's scenario, configure
 * the harness with the case's registration, invoke each step, then judge the answer against the
 * derived expectation and the mock's recordings. Files run in parallel; cases in a file in order.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import type { SuiteSettings } from '../../kit/case-meta.js';
import type { CaseContext } from '../../kit/case.js';
import { startDriver, type DriverClient, type InitializeResult } from '../../driver/index.js';
import { providedTarget, type HarnessTarget } from './provided.js';
import { startSuiteMocks, type SuiteMocks } from './mock-endpoints.js';
import { MISSING_TOKEN_ENV, TOKEN_ENV } from './registration.js';
import { scaledMargins, type ScaledMargins } from './timing.js';
import { runCase } from './run-case.js';
import type { HarnessCase } from './case-model.js';

/** The package version, sent as `suiteVersion`. */
export const SUITE_VERSION = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** What a running suite file holds; valid inside cases (after `beforeAll`). */
export interface FixtureState {
  target: HarnessTarget;
  settings: SuiteSettings;
  margins: ScaledMargins;
  client: DriverClient;
  info: InitializeResult;
  mocks: SuiteMocks;
  /** The bearer token in the driver's environment (random per file). */
  token: string;
  /** Unique per file, so event and call ids never collide across files and runs. */
  prefix: string;
  /** Next step number (event and call ids). */
  counter: number;
  /** Whether a case may keep the harness the previous case configured (see `FixtureOptions`). */
  reuse: boolean;
  /** What the driver's harness was last configured with, while a following case may reuse it. */
  configured: string | undefined;
}

/** Options of a suite file's fixture. */
export interface FixtureOptions {
  /**
   * Let a case keep the harness the previous case left when both configure the same registration
   * and the previous case passed without waits, late replies or backend exits: no `configure`, no
   * new persistent process. Only for files whose every case runs through `harnessCases`, since a
   * case that talks to the client directly would leave the fixture unaware of what it configured.
   */
  reuseConfigured?: boolean;
}

/** A suite file's fixture. */
export interface HarnessFixture {
  /** The fixture state; throws outside a running case. */
  readonly state: FixtureState;
  /** Runs one case to its verdict (throws on failure, ends `untested` through `ctx`). */
  run(testCase: HarnessCase, ctx: CaseContext): Promise<void>;
}

/** The driver's environment: the target's, with the suite's token set and the "missing" one unset. */
export function driverEnv(target: HarnessTarget, token: string): Record<string, string> {
  const env: Record<string, string> = { ...(target.env ?? {}), [TOKEN_ENV]: token };
  delete env[MISSING_TOKEN_ENV];
  return env;
}

/** Registers the file's `beforeAll` / `afterAll` and returns the fixture. */
export function useHarnessFixture(options: FixtureOptions = {}): HarnessFixture {
  let state: FixtureState | undefined;
  let mocks: SuiteMocks | undefined;
  let client: DriverClient | undefined;
  beforeAll(async () => {
    const { target, settings } = providedTarget();
    const token = target.token ?? randomBytes(18).toString('base64url');
    // The mocks and the driver start side by side: each is a process start or an esbuild build
    // (hundreds of ms, seconds under load), and every file pays them before its first case.
    const [mocked, launched] = await Promise.allSettled([
      startSuiteMocks(),
      startDriver(
        target.command,
        { protocolVersion: settings.protocolVersion, suiteVersion: SUITE_VERSION },
        {
          timeoutScale: settings.timeoutScale,
          env: driverEnv(target, token),
          ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
        },
      ),
    ]);
    if (mocked.status === 'fulfilled') mocks = mocked.value;
    if (launched.status === 'rejected') throw launched.reason;
    const started = launched.value;
    if (mocked.status === 'rejected') {
      await started.client.dispose();
      throw mocked.reason;
    }
    client = started.client;
    state = {
      target,
      settings,
      margins: scaledMargins(settings.timeoutScale),
      client,
      info: started.info,
      mocks: mocked.value,
      token,
      prefix: randomBytes(4).toString('hex'),
      counter: 0,
      reuse: options.reuseConfigured === true,
      configured: undefined,
    };
  }, 60_000);
  afterAll(async () => {
    if (client) {
      // The driver may already be unusable (a failing case); shutting it down is what matters here.
      await client.close().catch(() => undefined);
      await client.dispose();
    }
    await mocks?.close();
  }, 60_000);
  return {
    get state(): FixtureState {
      if (!state) throw new Error('the harness fixture is not started (use it inside a case)');
      return state;
    },
    run(testCase, ctx) {
      return runCase(this.state, testCase, ctx);
    },
  };
}
