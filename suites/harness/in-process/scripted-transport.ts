/**
 * What the in-process timing cases lend a harness: a transport whose every request is answered by
 * a script (so a case decides when, and with what, the backend "replies"), a registration over
 * such backends, and a bound on how long a case waits for a call that must end at once.
 */
import type {
  BackendTransport,
  InvokeResult,
  NotifyOutcome,
  SendContext,
  TransportReply,
} from '../../../reference-harness/index.js';
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import { PROTOCOL_VERSION } from '../../../protocol/wire-types.js';

export type RequestScript = (frame: string, ctx: SendContext, n: number) => Promise<TransportReply>;
export type NotifyScript = (frame: string, ctx: SendContext) => Promise<NotifyOutcome>;

/** An injected transport run by scripts; it records what it was handed. */
export class ScriptedTransport implements BackendTransport {
  readonly kind = 'injected' as const;
  readonly requests: string[] = [];
  readonly contexts: SendContext[] = [];
  notifications = 0;

  constructor(
    private readonly onRequest: RequestScript,
    private readonly onNotify: NotifyScript = () => Promise.resolve({ ok: true }),
  ) {}

  request(frame: string, ctx: SendContext): Promise<TransportReply> {
    this.requests.push(frame);
    this.contexts.push(ctx);
    return this.onRequest(frame, ctx, this.requests.length);
  }

  notify(frame: string, ctx: SendContext): Promise<NotifyOutcome> {
    this.notifications++;
    return this.onNotify(frame, ctx);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  livePids(): number[] {
    return [];
  }
}

/** A valid reply with no effects (no objection) to the request `frame`. */
export function noObjection(frame: string): TransportReply {
  const id = (JSON.parse(frame) as { id: string }).id;
  const message = { jsonrpc: '2.0', id, result: { protocolVersion: PROTOCOL_VERSION, effects: [] } };
  return { ok: true, message, raw: new TextEncoder().encode(JSON.stringify(message)) };
}

/** A lost connection, as a transport reports it (a failure value). */
export const CONNECTION_LOST: TransportReply = {
  ok: false,
  failure: { failureClass: 'connection', code: 'injected.reset', detail: 'connection reset by peer' },
};

export const INTERCEPTOR = 'dev.ahp-conformance.scripted';
export const OBSERVER = 'dev.ahp-conformance.scripted-observer';

/** The URL registered for a lent transport: never dialled, the harness sends through the loan. */
export const LENT_TRANSPORT_URL = 'http://127.0.0.1:9/lent-transport-instead';

/**
 * A registration of one interceptor (and, when asked, one observer) over lent transports; `url`
 * is what the registration names (a case that wants the harness to refuse it names another).
 */
export function scriptedRegistration(
  policy: FailurePolicy,
  timeoutMs: number,
  withObserver = false,
  url = LENT_TRANSPORT_URL,
): unknown {
  const transport = { type: 'http', url };
  const intercept = {
    events: ['tool.before'],
    mode: 'intercept',
    timeoutMs,
    failurePolicy: policy,
    content: { default: 'metadata' },
  };
  const observe = { events: ['tool.before'], mode: 'observe', content: { default: 'metadata' } };
  return {
    protocolVersion: PROTOCOL_VERSION,
    hooks: [
      { id: INTERCEPTOR, transport, subscriptions: [intercept] },
      ...(withObserver ? [{ id: OBSERVER, transport, subscriptions: [observe] }] : []),
    ],
  };
}

/** The tool call every timing case raises. */
export const TOOL_CALL = {
  session: { id: 'sess-timing' },
  call: { id: 'call-timing' },
  tool: { name: 'Bash', input: { command: 'ls' } },
};

/**
 * Real time a case gives a call that must end at once (a correct harness needs a few ticks); only
 * a harness that waits for the wrong thing spends it.
 */
export const AT_ONCE_MS = 1000;

/** The call's result, or `undefined` when it had not settled within `ms` of real time. */
export async function settledWithin<T>(call: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, ms, undefined)));
  try {
    return await Promise.race([call, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The audit entry of backend `id` in `result` (the first, when there are several). */
export function entryOf(result: InvokeResult, id: string): InvokeResult['audit'][number] | undefined {
  return result.audit.find((a) => a.backendId === id);
}
