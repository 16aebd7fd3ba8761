/**
 * The control API's routes as a pure function of (method, path, query, body) to (status, JSON),
 * so the HTTP server around it stays a few lines and the routes are testable without a socket.
 *
 *   GET  /scenario                 the scenario in force
 *   PUT  /scenario?keepState       load or replace it (400 with one sentence when invalid);
 *                                  keepState=true keeps rule counters, attempts and PRNG
 *   GET  /recordings?filter        the recording document (type, transport, connectionId, eventId, method, delivery)
 *   GET  /processes                the stdio mock processes of the run, with exit code or signal
 *   POST /reset                    forget recordings, engine state and the process list
 *   POST /processes                a stdio mock starting: {pid, at} -> {settings, actions, epoch}
 *   POST /processes/<pid>/exit     a stdio mock ending: {code, signal, performed?}
 *   POST /processes/<pid>/stdin-end  a stdio mock's stdin reached EOF: {at, messages}
 *   POST /step                     one frame of a stdio mock: {frame, performed?} -> {actions, delivery, epoch}
 *
 * `performed` lists actions the process carried out since its last call (see WirePerformed): they
 * become the `performedAt` of the recording's outbound entries.
 */
import { isJsonObject, type JsonValue } from '../../protocol/json.js';
import type { KillSignal, RecordEntry, Scenario, Transport } from '../model.js';
import { recordingDocument } from '../recording.js';
import type { MockCore, RecordFilter } from '../shells/mock-core.js';
import type { ProcessRegistry } from './process-registry.js';
import { actionsToWire, frameFromWire, performedFromWire } from './wire.js';

/** Validates a scenario sent to `PUT /scenario`. */
export type ScenarioValidator = (
  value: unknown,
) => { ok: true; scenario: Scenario } | { ok: false; message: string };

/** What a route answers. */
export interface RouteResult {
  status: number;
  body: unknown;
}

/** Everything the routes act on. */
export interface ControlState {
  core: MockCore;
  registry: ProcessRegistry;
  validate: ScenarioValidator;
}

const ok = (body: unknown = { ok: true }): RouteResult => ({ status: 200, body });
const fail = (status: number, message: string): RouteResult => ({ status, body: { error: message } });

/** Routes one control request. Never throws. */
export function route(
  state: ControlState,
  method: string,
  url: URL,
  body: JsonValue | undefined,
): RouteResult {
  const { core, registry } = state;
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const key = `${method} ${path}`;
  switch (key) {
    case 'GET /':
      return ok({ service: 'ahp-mock-control', version: 1 });
    case 'GET /scenario':
      return ok(core.scenario);
    case 'PUT /scenario': {
      const keep = url.searchParams.get('keepState');
      if (keep !== null && keep !== 'true' && keep !== 'false') {
        return fail(400, `keepState must be "true" or "false", not "${keep}"`);
      }
      const parsed = state.validate(body);
      if (!parsed.ok) return fail(400, parsed.message);
      core.setScenario(parsed.scenario, { keepState: keep === 'true' });
      return ok();
    }
    case 'GET /recordings':
      return ok(recordingDocument(core.recordings(filterOf(url.searchParams))));
    case 'GET /processes':
      return ok({ processes: registry.list() });
    case 'POST /reset':
      core.reset();
      registry.reset();
      return ok();
    case 'POST /processes': {
      if (!isJsonObject(body) || !Number.isSafeInteger(body.pid) || !isJsonObject(body.at)) {
        return fail(400, 'expected {"pid": <integer>, "at": {"monotonic", "wall"}}');
      }
      const pid = body.pid as number;
      const at = { monotonic: Number(body.at.monotonic), wall: Number(body.at.wall) };
      registry.started(pid, at.wall);
      const epoch = core.epoch;
      const result = core.start({ transport: 'stdio', connectionId: String(pid), at });
      return ok({
        settings: core.scenario.process ?? {},
        actions: actionsToWire(result.actions),
        epoch,
      });
    }
    case 'POST /step': {
      const frame = isJsonObject(body) ? frameFromWire(body.frame) : undefined;
      if (!frame) return fail(400, 'expected {"frame": {bytes, transport, connectionId, at}}');
      notePerformed(core, (body as { performed?: unknown }).performed);
      const epoch = core.epoch;
      const { actions, delivery } = core.step(frame);
      return ok({ actions: actionsToWire(actions), delivery, epoch });
    }
  }
  const exit = /^\/processes\/(\d+)\/exit$/.exec(path);
  if (exit && method === 'POST') {
    const report = isJsonObject(body) ? body : {};
    const code = typeof report.code === 'number' ? report.code : null;
    const signal = typeof report.signal === 'string' ? (report.signal as KillSignal) : null;
    notePerformed(core, report.performed);
    registry.exited(Number(exit[1]), { code, signal }, core.clock.wallNow());
    return ok();
  }
  const stdinEnd = /^\/processes\/(\d+)\/stdin-end$/.exec(path);
  if (stdinEnd && method === 'POST') {
    const report = isJsonObject(body) ? body : {};
    if (!isJsonObject(report.at) || !Number.isSafeInteger(report.messages)) {
      return fail(400, 'expected {"at": {"monotonic", "wall"}, "messages": <integer>}');
    }
    const at = { monotonic: Number(report.at.monotonic), wall: Number(report.at.wall) };
    registry.stdinEnded(Number(stdinEnd[1]), { at, messages: report.messages as number });
    return ok();
  }
  return fail(404, `no control route ${key}; see the routes listed in mock-backend/README.md`);
}

function notePerformed(core: MockCore, value: unknown): void {
  for (const p of performedFromWire(value)) {
    core.performed(p.delivery, p.epoch, p.connectionId, p.index, 1, p.at.monotonic, p.at.wall);
  }
}

function filterOf(params: URLSearchParams): RecordFilter {
  const filter: RecordFilter = {};
  const type = params.get('type');
  if (type !== null) filter.type = type as RecordEntry['type'];
  const transport = params.get('transport');
  if (transport !== null) filter.transport = transport as Transport;
  const connectionId = params.get('connectionId');
  if (connectionId !== null) filter.connectionId = connectionId;
  const eventId = params.get('eventId');
  if (eventId !== null) filter.eventId = eventId;
  const method = params.get('method');
  if (method !== null) filter.method = method;
  const delivery = params.get('delivery');
  if (delivery !== null) filter.delivery = Number(delivery);
  return filter;
}
