/**
 * A second driver of the reference harness, written from docs/driver-protocol.md alone, that
 * makes the two choices the docs leave to a driver and the bundled one does not: it declares only
 * the stdio binding, and it refuses `configure` after `close` (-32012, like `invoke`). The suite
 * must hold it to what it announces and nothing more: every HTTP case `untested`, no failure.
 *
 *   node --import tsx suites/driver/test-drivers/stdio-only-driver.ts
 */
import { createInterface } from 'node:readline';
import {
  createHarness,
  HarnessClosedError,
  HarnessConfigError,
  HarnessInputError,
  type AuditRecord,
  type Harness,
  type InvokeResult,
} from '../../../reference-harness/index.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Params = Record<string, unknown>;

/** A JSON-RPC error answer: code, sentence, and the stable `data.code` of the docs' table. */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: { [key: string]: Json },
  ) {
    super(message);
  }
}

const INITIALIZE_RESULT = {
  implementation: { name: 'ahp-conformance-stdio-only-driver', version: '0.1.0' },
  protocolVersions: ['draft'],
  bindings: ['stdio'],
  features: {
    retries: true,
    budget: true,
    cancel: true,
    close: true,
    observe: true,
    tokenEnv: false,
    tokenProvider: false,
    stdioPersistent: true,
    stdioPerEvent: true,
    http: false,
  },
};

let initialized = false;
let harness: Harness | undefined;
/** Set by `close`: from then on this driver serves nothing but `close` again. */
let closed = false;

function isObject(value: unknown): value is Params {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Issues for backends this driver does not serve: it declares the stdio binding only. */
function httpIssues(registration: unknown): { path: string; message: string }[] {
  const hooks = isObject(registration) && Array.isArray(registration.hooks) ? registration.hooks : [];
  return hooks.flatMap((hook: unknown, i) =>
    isObject(hook) && isObject(hook.transport) && hook.transport.type === 'http'
      ? [{ path: `$.hooks[${i}].transport.type`, message: 'This harness supports stdio backends only.' }]
      : [],
  );
}

async function configure(params: Params): Promise<Json> {
  if (closed) {
    throw new RpcError(-32012, 'The harness is closed; start a new driver to configure one again.', {
      code: 'harness-closed',
    });
  }
  const { registration, retries } = params;
  if (retries !== undefined && !(Number.isSafeInteger(retries) && (retries as number) >= 0)) {
    throw new RpcError(-32602, 'params.retries must be an integer of at least 0.', {
      code: 'invalid-params',
      field: 'retries',
    });
  }
  const unsupported = httpIssues(registration);
  if (unsupported.length > 0) return { accepted: false, issues: unsupported };
  let next: Harness;
  try {
    next = createHarness({
      registration,
      env: { ...process.env },
      ...(retries === undefined ? {} : { retries: retries as number }),
    });
  } catch (error) {
    if (!(error instanceof HarnessConfigError)) throw error;
    const issues = error.violations.map((v) => ({ path: v.path, message: v.message }));
    return { accepted: false, issues: issues.length > 0 ? issues : [{ path: '$', message: error.message }] };
  }
  // The docs: a later configure replaces the harness, the previous one closed (and reaped) first.
  const previous = harness;
  harness = undefined;
  await previous?.close();
  harness = next;
  return { accepted: true };
}

function auditEntry(record: AuditRecord): Json {
  return {
    backendId: record.backendId,
    outcome: record.outcome,
    mode: record.mode,
    subscriptionIndex: record.subscriptionIndex,
    attempts: record.attempts,
    durationMs: Math.max(0, record.settledAt - record.startedAt),
    ...(record.failureClass === undefined ? {} : { failureClass: record.failureClass }),
    ...(record.failureCode === undefined ? {} : { failureCode: record.failureCode }),
    ...(record.policy === undefined ? {} : { policy: record.policy }),
    ...(record.synthetic === undefined ? {} : { synthetic: record.synthetic }),
    ...(record.boundaryCopy === undefined ? {} : { boundaryCopy: record.boundaryCopy }),
  };
}

function invokeResult(result: InvokeResult): Json {
  return {
    decision: result.decision,
    synthetic: result.synthetic,
    interrupted: result.interrupted,
    eventId: result.event.id,
    audit: result.audit.map(auditEntry),
    ...(result.reason === undefined ? {} : { reason: result.reason }),
    ...(result.ending === undefined ? {} : { ending: result.ending }),
  };
}

async function invoke(params: Params): Promise<Json> {
  if (closed) {
    throw new RpcError(-32012, 'The harness is closed.', { code: 'harness-closed' });
  }
  if (!harness)
    throw new RpcError(-32011, 'No harness yet: call configure first.', { code: 'not-configured' });
  const event = params.event;
  if (!isObject(event)) {
    throw new RpcError(-32602, 'params.event must be an object.', { code: 'invalid-params', field: 'event' });
  }
  const { budgetMs, cancelAfterMs } = params;
  const cancel = new AbortController();
  const input = {
    call: event.call as { id: string },
    tool: event.tool as { name: string; input: { [key: string]: Json } },
    ...(isObject(event.session) ? { session: event.session as { id: string } } : {}),
    ...(typeof event.id === 'string' ? { eventId: event.id } : {}),
  };
  // The docs: cancelAfterMs counts from when the harness starts the call.
  const timer =
    typeof cancelAfterMs === 'number' ? setTimeout(() => cancel.abort(), cancelAfterMs) : undefined;
  try {
    const result = await harness.invoke(input, {
      signal: cancel.signal,
      ...(typeof budgetMs === 'number' ? { budgetMs } : {}),
    });
    return invokeResult(result);
  } catch (error) {
    if (error instanceof HarnessClosedError) {
      throw new RpcError(-32012, error.message, { code: 'harness-closed' });
    }
    if (error instanceof HarnessInputError) {
      throw new RpcError(-32602, error.message, {
        code: 'invoke-input-invalid',
        violations: error.violations.map((v) => ({ path: v.path, message: v.message })),
      });
    }
    throw error;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

async function close(): Promise<Json> {
  closed = true;
  await harness?.close();
  return {};
}

async function handle(method: string, params: Params): Promise<Json> {
  if (method === 'initialize') {
    initialized = true;
    return INITIALIZE_RESULT;
  }
  if (!['configure', 'invoke', 'close'].includes(method)) {
    throw new RpcError(-32601, `Unknown method "${method}".`);
  }
  if (!initialized) throw new RpcError(-32010, 'Call initialize first.', { code: 'not-initialized' });
  if (method === 'configure') return configure(params);
  if (method === 'invoke') return invoke(params);
  return close();
}

function send(message: Json): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

/** One request line: every request is served at once, so `close` may overtake an `invoke`. */
async function onLine(line: string): Promise<void> {
  let request: unknown;
  try {
    request = JSON.parse(line);
  } catch {
    send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'The line is not JSON.' } });
    return;
  }
  if (!isObject(request) || typeof request.method !== 'string') {
    const id = isObject(request) && typeof request.id === 'number' ? request.id : null;
    send({ jsonrpc: '2.0', id, error: { code: -32600, message: 'Expected one JSON-RPC request object.' } });
    return;
  }
  const id = (request.id ?? null) as Json;
  try {
    const result = await handle(request.method, isObject(request.params) ? request.params : {});
    send({ jsonrpc: '2.0', id, result });
  } catch (error) {
    const rpc =
      error instanceof RpcError
        ? error
        : new RpcError(
            -32013,
            `The harness failed: ${error instanceof Error ? error.message : String(error)}`,
            {
              code: 'harness-failure',
            },
          );
    send({
      jsonrpc: '2.0',
      id,
      error: { code: rpc.code, message: rpc.message, ...(rpc.data ? { data: rpc.data } : {}) },
    });
  }
}

/** The docs: on stdin EOF or SIGTERM, close the harness (reaping its backends) and exit 0. */
let exiting = false;
async function shutDown(): Promise<void> {
  if (exiting) return;
  exiting = true;
  await harness?.close().catch(() => undefined);
  process.exit(0);
}

createInterface({ input: process.stdin, crlfDelay: Infinity })
  .on('line', (line) => void onLine(line))
  .on('close', () => void shutDown());
process.on('SIGTERM', () => void shutDown());
