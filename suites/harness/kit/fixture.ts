/**
 * The per-file fixture of the harness suite: one driver (initialized once; its features decide
 * what is `untested`) and the file's mocks per lane, and `run(case)`: take a free lane, load the
 * case's scenario, configure the harness with the case's registration, invoke each step, then
 * judge the answer against the derived expectation and the mock's recordings. Files run in
 * parallel; a file with one lane (the default) runs its cases in order, a file with more runs that
 * many at once, each on its own driver and mocks, so no case ever shares a harness or a scenario.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { MAX_CONCURRENT_CASES, stderrTail, type SuiteSettings } from '../../common/case-meta.js';
import type { CaseContext } from '../../common/case.js';
import { hookTimeoutMs } from '../../common/settings.js';
import { endsDriverConnection, type DriverClient, type InitializeResult } from '../../driver/index.js';
import { providedTarget, type HarnessTarget } from './provided.js';
import { startSuiteMocks, type SuiteMocks } from './mock-endpoints.js';
import { guardCase } from './case-guard.js';
import { launchDriver, laneToken } from './lane-driver.js';
import { scaledHarnessMargins, type ScaledHarnessMargins } from './timing.js';
import { runCase } from './run-case.js';
import type { HarnessCase } from './case-model.js';

export { driverEnv, SUITE_VERSION } from './lane-driver.js';

/** What a running suite file holds; valid inside cases (after `beforeAll`). */
export interface FixtureState {
  target: HarnessTarget;
  settings: SuiteSettings;
  margins: ScaledHarnessMargins;
  client: DriverClient;
  info: InitializeResult;
  mocks: SuiteMocks;
  /** The bearer token in the driver's environment (random per lane unless the target sets one). */
  token: string;
  /** Unique per lane, so event and call ids never collide across lanes, files and runs. */
  prefix: string;
  /** Next step number (event and call ids). */
  counter: number;
  /** Whether a case may keep the harness the previous case configured (see `FixtureOptions`). */
  reuse: boolean;
  /** What the driver's harness was last configured with, while a following case may reuse it. */
  configured: string | undefined;
  /** True after `close` until a `configure` is accepted (see lane-driver.ts). */
  harnessClosed: boolean;
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
  /**
   * Run the file's cases concurrently, up to `MAX_CONCURRENT_CASES` at once, each on a lane of its
   * own (a driver and mocks; the first starts before the first case, the others when a case finds
   * every lane busy). For files whose cases mostly wait on deadlines, budgets and late replies:
   * their waits overlap instead of adding up. Checks reach the mock through their `CaseRunContext`,
   * never `state.mocks` (the first lane's). A case declared without `harnessCases` is not
   * concurrent: vitest runs it alone, so it may use `state`, unless cases keep configurations;
   * it must leave the driver usable (never `close` it), since the lanes go on to the next file.
   */
  concurrent?: boolean;
}

/** A suite file's fixture. */
export interface HarnessFixture {
  /** The fixture state (of the first lane, for what all lanes share); throws outside a running case. */
  readonly state: FixtureState;
  /** Whether the file's cases run concurrently (see `FixtureOptions.concurrent`). */
  readonly concurrent: boolean;
  /** Runs one case to its verdict (throws on failure, ends `untested` through `ctx`). */
  run(testCase: HarnessCase, ctx: CaseContext): Promise<void>;
}

/** A driver and its mocks (`state.client`, `state.mocks`), which one case at a time runs on. */
interface Lane {
  state: FixtureState;
  /** False once a case on the lane threw: its driver and mocks are not handed to another file. */
  clean: boolean;
}

/** Which lanes are interchangeable: same target (command, environment, token) and settings. */
function laneKey(target: HarnessTarget, settings: SuiteSettings): string {
  return JSON.stringify([target, settings]);
}

/**
 * Lanes that concurrent files left in good order, by `laneKey`, for the next file this worker
 * runs: vitest runs a worker's files one after another and, with isolate: false, keeps this
 * module, and every lane start is a driver's Node boot (a run needs dozens of lanes). A case
 * configures the harness it needs and loads its own scenario, so a lane keeps nothing a case
 * relies on. Lanes still here when the worker exits have their drivers ended by execa's cleanup
 * or by the end of their stdin, and a driver closes its harness either way.
 */
const idleLanes = new Map<string, Lane[]>();

function takeIdleLane(key: string): Lane | undefined {
  const lanes = idleLanes.get(key) ?? [];
  for (let lane = lanes.pop(); lane !== undefined; lane = lanes.pop()) {
    if (!lane.state.client.exited) return lane;
    void stopLane(lane);
  }
  return undefined;
}

function parkLane(key: string, lane: Lane): void {
  const lanes = idleLanes.get(key) ?? [];
  lanes.push(lane);
  idleLanes.set(key, lanes);
}

/** Starts one lane: its mocks and its driver side by side, nothing left running if either fails. */
async function startLane(target: HarnessTarget, settings: SuiteSettings, reuse: boolean): Promise<Lane> {
  const token = laneToken(target);
  // Each is a process start or an esbuild build (hundreds of ms, seconds under load), and every
  // file pays them before its first case.
  const [mocked, launched] = await Promise.allSettled([
    startSuiteMocks(),
    launchDriver(target, settings, token),
  ]);
  if (launched.status === 'rejected') {
    if (mocked.status === 'fulfilled') await mocked.value.close();
    throw launched.reason;
  }
  const { client, info } = launched.value;
  if (mocked.status === 'rejected') {
    await client.dispose();
    throw mocked.reason;
  }
  const mocks = mocked.value;
  const state: FixtureState = {
    target,
    settings,
    margins: scaledHarnessMargins(settings.timeoutScale, settings.precisionScale),
    client,
    info,
    mocks,
    token,
    prefix: randomBytes(4).toString('hex'),
    counter: 0,
    reuse,
    configured: undefined,
    harnessClosed: false,
  };
  return { state, clean: true };
}

async function stopLane(lane: Lane): Promise<void> {
  // The driver may already be unusable (a failing case); shutting it down is what matters here.
  // One whose connection ended would only make close wait out its timeout.
  if (lane.state.client.ended === undefined) await lane.state.client.close().catch(() => undefined);
  await lane.state.client.dispose();
  await lane.state.mocks.close();
}

/** Ends a case whose lane could not start: unjudged when the driver failed, otherwise rethrown. */
export function stopOnStartFailure(error: unknown, ctx: CaseContext): never {
  const stopped = endsDriverConnection(error);
  if (stopped === undefined) throw error;
  ctx.targetStopped({
    message: stopped.message,
    stderrTail: stderrTail('stderr' in stopped ? stopped.stderr : ''),
  });
}

/** Registers the file's `beforeAll` / `afterAll` and returns the fixture. */
export function useHarnessFixture(options: FixtureOptions = {}): HarnessFixture {
  const maxLanes = options.concurrent === true ? MAX_CONCURRENT_CASES : 1;
  const reuse = options.reuseConfigured === true;
  let setup: { target: HarnessTarget; settings: SuiteSettings; key: string } | undefined;
  let first: Lane | undefined;
  /** Why the file's first lane could not start: every case of the file ends with it. */
  let startFailure: unknown;
  // Every lane started, starting or taken, so that afterAll ends even one a case still waits for.
  const starts: Promise<Lane>[] = [];
  const free: Lane[] = [];
  const waiting: ((lane: Lane) => void)[] = [];
  function launch(): Promise<Lane> {
    if (!setup) throw new Error('the harness fixture is not started (use it inside a case)');
    const idle = takeIdleLane(setup.key);
    if (idle) {
      idle.state.reuse = reuse;
      idle.state.configured = undefined;
    }
    const start = idle ? Promise.resolve(idle) : startLane(setup.target, setup.settings, reuse);
    starts.push(start);
    return start;
  }
  async function acquire(): Promise<Lane> {
    const lane = free.pop();
    if (lane) return lane;
    if (starts.length < maxLanes) return launch();
    return new Promise((resolve) => waiting.push(resolve));
  }
  function release(lane: Lane): void {
    const next = waiting.shift();
    if (next) next(lane);
    else free.push(lane);
  }
  beforeAll(async () => {
    const { target, settings } = providedTarget();
    setup = { target, settings, key: laneKey(target, settings) };
    // A driver that fails to start here is reported by the cases (the run stops, exit 3), not as
    // a hook error that would fail each of them.
    try {
      first = await launch();
      free.push(first);
    } catch (error) {
      startFailure = error;
    }
  }, hookTimeoutMs());
  afterAll(async () => {
    const lanes = (await Promise.allSettled(starts)).flatMap((l) =>
      l.status === 'fulfilled' ? [l.value] : [],
    );
    const key = setup?.key;
    await Promise.allSettled(
      lanes.map(async (lane) => {
        // Only a concurrent file's lanes go on: its cases run through `run` (a case written by hand
        // there must leave the driver usable), so a free, clean lane is as its last case left it.
        // Other files may drive the client directly (shutdown closes it).
        if (
          maxLanes > 1 &&
          key !== undefined &&
          lane.clean &&
          free.includes(lane) &&
          !lane.state.client.exited
        ) {
          parkLane(key, lane);
        } else {
          await stopLane(lane);
        }
      }),
    );
  }, hookTimeoutMs());
  return {
    get state(): FixtureState {
      if (startFailure !== undefined) throw startFailure;
      if (!first) throw new Error('the harness fixture is not started (use it inside a case)');
      return first.state;
    },
    concurrent: maxLanes > 1,
    async run(testCase, ctx) {
      if (startFailure !== undefined) stopOnStartFailure(startFailure, ctx);
      const lane = await acquire().catch((error: unknown) => stopOnStartFailure(error, ctx));
      try {
        await guardCase(
          () => lane.state,
          ctx,
          () => runCase(lane.state, testCase, ctx),
          {
            transcript: false,
          },
        );
      } catch (error) {
        lane.clean = false;
        throw error;
      } finally {
        release(lane);
      }
    },
  };
}
