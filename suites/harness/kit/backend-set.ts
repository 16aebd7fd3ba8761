/**
 * Several mock backends in one registration, each its own mock with its own scenario and
 * recordings, so that the suite can tell which backend a frame reached and when: HTTP mocks (one
 * server each, in the suite's process) or stdio mocks (one control server each; the harness
 * spawns the processes). Each backend answers the intercept requests of each step of the case as
 * scripted, the frames attributed to steps by kit/step-identity.ts (whatever identity fields they
 * fill in), and what it received is read back with arrival and reply times on the wall clock,
 * which is one clock across the processes of a machine. A backend whose subscriptions upload
 * content gets an HTTP mock of its own as upload endpoint (scenario `upload`: it checks each
 * POST's framing and answers as the backend's `uploadAnswer` scripts), so everything that mock
 * receives is an upload of that backend's.
 */
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { JsonObject } from '../../../protocol/json.js';
import { waitUntilArrivedOrQuiet } from './quiet-wait.js';
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
import { TOKEN_ENV } from './registration.js';
import { identifiedRules, type StepReply } from './scenario.js';
import type { CaseSteps } from './step-identity.js';
import type { HarnessTransport } from './timing.js';
import { uploadPosts, type UploadPost } from './upload-records.js';
import { decodeFrames, type WireFrame } from './wire-records.js';

/** Bounds of a subscription's `upload`; its endpoint is the backend's upload mock. */
export interface SetUploadLimits {
  timeoutMs: number;
  maxBytes: number;
}

/**
 * What every subscription of the set may set beyond its mode (defaults: tool.before, metadata,
 * no includeNative).
 */
interface SubscriptionOptions {
  events?: string[];
  content?: JsonObject;
  upload?: SetUploadLimits;
  /** Written as the subscription's `includeNative` when set (true or false); absent otherwise. */
  includeNative?: boolean;
}

/** One subscription of a backend in the set. */
export type SetSubscription = SubscriptionOptions &
  ({ mode: 'intercept'; policy: FailurePolicy; timeoutMs: number } | { mode: 'observe' });

/** One backend of the set: its subscriptions and its reply per call. */
export interface SetBackend {
  /** The backend id in the registration (default: `setBackendId` of its position). */
  id?: string;
  subscriptions: SetSubscription[];
  /** What the backend does with the intercept requests of each step, by step index (absent: `[]`). */
  replies: readonly (Behaviour | undefined)[];
  /**
   * What its upload endpoint answers each well-framed upload (default: a receipt under 200, which
   * does not confirm); a badly framed one gets 400 whatever this says.
   */
  uploadAnswer?: Behaviour;
  /**
   * The backend's event deliveries require `Authorization: Bearer <token>`, registered as bearer
   * authentication from the driver's TOKEN_ENV (its upload endpoint requires nothing).
   */
  bearer?: string;
}

/** The upload mock's default answer: the receipt of the bytes, under a status that is not 201. */
export const UNCONFIRMING_UPLOAD_ANSWER: Behaviour = { kind: 'upload-receipt', status: 200 };

/**
 * The path and query of every upload endpoint: the sender must POST to exactly this, keeping both
 * (content-upload.md, Configuration and destination).
 */
export const UPLOAD_TARGET = '/ahp-uploads/in?scope=conformance';

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
  /**
   * Waits (up to `timeoutMs`) until backend `index` holds `count` frames of `method` of step
   * `step`. With `quietMs` (deliveries that may never come), the wait also ends once that backend
   * recorded nothing and ran no process for `quietMs`.
   */
  waitFor(
    index: number,
    step: number,
    method: string,
    count: number,
    timeoutMs: number,
    quietMs?: number,
  ): Promise<void>;
  /** Each request backend `index`'s upload endpoint received, in arrival order. */
  uploads(index: number): UploadPost[];
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
    ...(backend.bearer === undefined ? {} : { http: { requireBearer: { token: backend.bearer } } }),
  };
}

function subscriptionDocument(subscription: SetSubscription, uploadUrl: string | undefined): JsonObject {
  const document: JsonObject = {
    events: subscription.events ?? ['tool.before'],
    mode: subscription.mode,
    content: subscription.content ?? { default: 'metadata' },
  };
  if (subscription.includeNative !== undefined) document.includeNative = subscription.includeNative;
  if (subscription.mode === 'intercept') {
    document.timeoutMs = subscription.timeoutMs;
    document.failurePolicy = subscription.policy;
  }
  if (subscription.upload && uploadUrl !== undefined) {
    document.upload = { endpoint: new URL(UPLOAD_TARGET, uploadUrl).href, ...subscription.upload };
  }
  return document;
}

type Mock = HttpMock | MockControl;

/** One backend's mocks: the one its transport names, and its upload endpoint when it has one. */
interface Started {
  mock: Mock;
  entry: JsonObject;
  upload?: HttpMock;
}

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

/** Starts a backend's mock, and its upload mock when a subscription uploads; closes both on failure. */
async function startBackend(
  transport: HarnessTransport,
  scenario: Scenario,
  uploadAnswer: Behaviour | undefined,
): Promise<Started> {
  const started = await startOne(transport, scenario);
  if (uploadAnswer === undefined) return started;
  try {
    const upload = await startHttpMock({
      scenario: { rules: [], upload: { answer: uploadAnswer } },
      control: false,
    });
    return { ...started, upload };
  } catch (error) {
    await started.mock.close();
    throw error;
  }
}

function closeBackend(started: Started): Promise<unknown> {
  return Promise.allSettled([started.mock.close(), started.upload?.close()]);
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
    backends.map((b) =>
      startBackend(
        transport,
        backendScenario(b, steps, 0),
        b.subscriptions.some((s) => s.upload !== undefined)
          ? (b.uploadAnswer ?? UNCONFIRMING_UPLOAD_ANSWER)
          : undefined,
      ),
    ),
  );
  const mocks = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(mocks.map(closeBackend));
    throw failed.reason;
  }
  const ids = backends.map((b, i) => b.id ?? setBackendId(i + 1));
  const at = (index: number) => mocks[index] as Started;
  const callAt = (index: number, step: number): BackendCall => {
    const entries = at(index).mock.recordings();
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
        transport: at(i).entry,
        ...(b.bearer === undefined ? {} : { authentication: { type: 'bearer', tokenEnv: TOKEN_ENV } }),
        subscriptions: b.subscriptions.map((s) => subscriptionDocument(s, at(i).upload?.url)),
      })),
    }),
    begin(step) {
      if (step > 0) {
        backends.forEach((b, i) =>
          at(i).mock.setScenario(backendScenario(b, steps, step), { keepState: true }),
        );
      }
      steps.begin(step);
    },
    callAt,
    async waitFor(index, step, method, count, timeoutMs, quietMs) {
      // The mock's wait looks at deliveries: with none to look at, it would wait out the timeout.
      if (count <= 0) return;
      const { mock } = at(index);
      const belongs = steps.of(step);
      const matching = () =>
        decodeFrames(mock.recordings({ type: 'inbound' })).filter((f) => f.method === method && belongs(f))
          .length;
      if (quietMs === undefined) {
        await mock.waitForDelivery(() => matching() >= count, { timeoutMs }).catch(() => undefined);
        return;
      }
      const processes = 'processes' in mock ? () => mock.processes() : () => [];
      await waitUntilArrivedOrQuiet(
        {
          arrived: () => matching() >= count,
          recorded: () => mock.recordings().length,
          running: () => processes().some((p) => p.alive && p.exit === undefined),
        },
        timeoutMs,
        quietMs,
      );
    },
    uploads(index) {
      return uploadPosts(at(index).upload?.recordings() ?? []);
    },
    async close() {
      await Promise.all(mocks.map(closeBackend));
    },
  };
}
