/**
 * Several mock backends in one registration, each its own mock with its own scenario and
 * recordings, so that the suite can tell which backend a frame reached and when: HTTP mocks (one
 * server each, in the suite's process) or stdio mocks (one control server each; the harness
 * spawns the processes). Each backend answers the intercept requests of each step of the case as
 * scripted, the frames attributed to steps by kit/step-identity.ts (whatever identity fields they
 * fill in), and what it received is read back with arrival and reply times on the wall clock,
 * which is one clock across the processes of a machine.
 */
import type { JsonObject } from '../../../protocol/json.js';
import { PROTOCOL_VERSION } from '../../../protocol/wire-types.js';
import {
  startHttpMock,
  startMockControl,
  type Behaviour,
  type HttpMock,
  type MockControl,
  type RecordEntry,
  type Scenario,
} from '../../../mock-backend/index.js';
import { identifiedRules, type StepReply } from './scenario.js';
import type { CaseSteps } from './step-identity.js';
import type { HarnessTransport } from './timing.js';
import { decodeFrames, type WireFrame } from './wire-records.js';

/** One subscription of a backend in the set. */
export type SetSubscription =
  { mode: 'intercept'; policy: 'fail-open' | 'fail-closed'; timeoutMs: number } | { mode: 'observe' };

/** One backend of the set: its subscriptions (all to tool.before) and its reply per call. */
export interface SetBackend {
  subscriptions: SetSubscription[];
  /** What the backend does with the intercept requests of each step, by step index (absent: `[]`). */
  replies: readonly (Behaviour | undefined)[];
}

/** What one backend received for one call, with the times the verdicts rest on. */
export interface BackendCall {
  requests: TimedFrame[];
  notifications: TimedFrame[];
}

/** A received frame with its arrival and the earliest moment its reply can have left (wall clock, ms). */
export interface TimedFrame {
  frame: WireFrame;
  arrivedAtWallMs: number;
  /**
   * When the backend's reply began to go out: as the mock recorded it, or, while that record is
   * still on its way (a stdio process reports it with its next frame or at exit), the moment its
   * scheduled delay let it go at the earliest. Absent when the backend never answers.
   */
  repliedAtWallMs?: number;
}

/** A running set of mock backends. */
export interface BackendSet {
  /** The backend ids, in registration order. */
  readonly ids: readonly string[];
  /** The registration document with every backend, in order. */
  registration(): JsonObject;
  /** Step `step` begins now: each backend answers unidentified requests as that step's. */
  begin(step: number): void;
  /** What backend `index` received for step `step`. */
  callAt(index: number, step: number): BackendCall;
  /** Waits (up to `timeoutMs`) until backend `index` holds `count` frames of `method` of step `step`. */
  waitFor(index: number, step: number, method: string, count: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** The id of the n-th backend of a set (1-based, reverse-DNS as registration requires). */
export function setBackendId(n: number): string {
  return `dev.ahp-conformance.chain-${n}`;
}

function backendScenario(backend: SetBackend, steps: CaseSteps, current: number): Scenario {
  // Every step gets a rule of its own, so that no request of another step takes its reply.
  const replies = steps.steps.map((_, i): StepReply[] => [
    { name: `step ${i + 1}`, behaviour: backend.replies[i] ?? { kind: 'respond' } },
  ]);
  return {
    name: 'backend set',
    rules: identifiedRules(
      steps.steps.map((s) => s.ids),
      replies,
      current,
    ),
  };
}

function subscriptionDocument(subscription: SetSubscription): JsonObject {
  const base: JsonObject = {
    events: ['tool.before'],
    mode: subscription.mode,
    content: { default: 'metadata' },
  };
  if (subscription.mode === 'observe') return base;
  return { ...base, timeoutMs: subscription.timeoutMs, failurePolicy: subscription.policy };
}

type Mock = HttpMock | MockControl;

async function startOne(
  transport: HarnessTransport,
  scenario: Scenario,
): Promise<{ mock: Mock; entry: JsonObject }> {
  if (transport === 'http') {
    const mock = await startHttpMock({ scenario, control: false });
    return { mock, entry: { type: 'http', url: mock.url } };
  }
  const mock = await startMockControl({ scenario });
  const { command, args } = mock.stdioCommand();
  const lifecycle = transport === 'stdio-persistent' ? 'persistent' : 'per_event';
  return { mock, entry: { type: 'stdio', command, args, lifecycle } };
}

/** When each delivery's first write began, on the wall clock (absent: not recorded yet). */
function writeWalls(entries: readonly RecordEntry[]): Map<number, number> {
  const walls = new Map<number, number>();
  for (const e of entries) {
    if (e.type === 'outbound' && e.action.type === 'write' && e.performedAt && !walls.has(e.delivery)) {
      walls.set(e.delivery, e.performedAt.wall);
    }
  }
  return walls;
}

function timed(frame: WireFrame, written: Map<number, number>): TimedFrame {
  const out: TimedFrame = { frame, arrivedAtWallMs: frame.atWallMs };
  const recorded = written.get(frame.delivery);
  const firstWrite = frame.actions.find((a) => a.type === 'write');
  if (recorded !== undefined) out.repliedAtWallMs = recorded;
  else if (firstWrite) out.repliedAtWallMs = frame.atWallMs + firstWrite.afterMs;
  return out;
}

/**
 * Starts one mock per backend over `transport`, for the steps of one case; closes what started if
 * one fails.
 */
export async function startBackendSet(
  transport: HarnessTransport,
  backends: readonly SetBackend[],
  steps: CaseSteps,
): Promise<BackendSet> {
  const started = await Promise.allSettled(
    backends.map((b) => startOne(transport, backendScenario(b, steps, 0))),
  );
  const mocks = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.allSettled(mocks.map((m) => m.mock.close()));
    throw failed.reason;
  }
  const ids = backends.map((_, i) => setBackendId(i + 1));
  const callAt = (index: number, step: number): BackendCall => {
    const entries = (mocks[index] as { mock: Mock }).mock.recordings();
    const written = writeWalls(entries);
    const frames = decodeFrames(entries).filter(steps.of(step));
    return {
      requests: frames
        .filter((f) => f.method === 'hooks/intercept' && f.kind === 'request')
        .map((f) => timed(f, written)),
      notifications: frames.filter((f) => f.method === 'hooks/observe').map((f) => timed(f, written)),
    };
  };
  return {
    ids,
    registration: () => ({
      protocolVersion: PROTOCOL_VERSION,
      hooks: backends.map((b, i) => ({
        id: ids[i] as string,
        transport: (mocks[i] as { entry: JsonObject }).entry,
        subscriptions: b.subscriptions.map(subscriptionDocument),
      })),
    }),
    begin(step) {
      if (step > 0) {
        backends.forEach((b, i) =>
          (mocks[i] as { mock: Mock }).mock.setScenario(backendScenario(b, steps, step), { keepState: true }),
        );
      }
      steps.begin(step);
    },
    callAt,
    async waitFor(index, step, method, count, timeoutMs) {
      // The mock's wait looks at deliveries: with none to look at, it would wait out the timeout.
      if (count <= 0) return;
      const { mock } = mocks[index] as { mock: Mock };
      const belongs = steps.of(step);
      const matching = () =>
        decodeFrames(mock.recordings({ type: 'inbound' })).filter((f) => f.method === method && belongs(f))
          .length;
      await mock.waitForDelivery(() => matching() >= count, { timeoutMs }).catch(() => undefined);
    },
    async close() {
      await Promise.allSettled(mocks.map((m) => m.mock.close()));
    },
  };
}
