import type { Clock } from '../protocol/clock.js';
import type { FailureClass } from '../protocol/failure-classes.js';
import type { JsonValue } from '../protocol/json.js';
import type { BackendTransport, NotifyOutcome, SendContext, TransportReply } from './transport.js';

/** What the fake backend does with one frame; `afterMs` delays it on the injected clock. */
export type FakeStep =
  | { kind: 'reply'; message: JsonValue; afterMs?: number }
  | { kind: 'fail'; failureClass: FailureClass; code: string; afterMs?: number }
  | { kind: 'ack'; afterMs?: number }
  | { kind: 'hang' };

/** One frame the fake received, with the clock time and the attempt it arrived as. */
export interface FakeDelivery {
  frame: string;
  at: number;
  method: 'request' | 'notify';
}

const encoder = new TextEncoder();

/**
 * An in-process `BackendTransport` for tests. It keeps the transport contract: it never rejects,
 * resolves with `deadline-exceeded` as soon as the signal aborts, reports a reply that comes
 * after the abort through `onLateReply`, and reports every frame through `onFrame`.
 */
export class FakeTransport implements BackendTransport {
  readonly kind = 'injected' as const;
  readonly deliveries: FakeDelivery[] = [];
  closeCalls = 0;
  private requests = 0;
  private notifications = 0;

  constructor(
    private readonly clock: Clock,
    private readonly onRequest: (frame: string, n: number) => FakeStep,
    private readonly onNotify: (frame: string, n: number) => FakeStep = () => ({ kind: 'ack' }),
  ) {}

  request(frame: string, ctx: SendContext): Promise<TransportReply> {
    this.deliveries.push({ frame, at: this.clock.now(), method: 'request' });
    ctx.onFrame?.('out', encoder.encode(frame));
    return this.perform(this.onRequest(frame, ++this.requests), ctx);
  }

  async notify(frame: string, ctx: SendContext): Promise<NotifyOutcome> {
    this.deliveries.push({ frame, at: this.clock.now(), method: 'notify' });
    ctx.onFrame?.('out', encoder.encode(frame));
    const r = await this.perform(this.onNotify(frame, ++this.notifications), ctx);
    return r.ok ? { ok: true } : { ok: false, failure: r.failure };
  }

  async close(): Promise<void> {
    this.closeCalls++;
  }

  livePids(): number[] {
    return [];
  }

  /** Frames received by `request`, in order. */
  get requestFrames(): string[] {
    return this.deliveries.filter((d) => d.method === 'request').map((d) => d.frame);
  }

  private perform(step: FakeStep, ctx: SendContext): Promise<TransportReply> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = (reply: TransportReply): void => {
        if (settled) return;
        settled = true;
        ctx.signal.removeEventListener('abort', onAbort);
        resolve(reply);
      };
      const onAbort = (): void =>
        settle({
          ok: false,
          failure: { failureClass: 'deadline-exceeded', code: 'fake.aborted', detail: 'aborted' },
        });
      if (ctx.signal.aborted) return onAbort();
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      if (step.kind === 'hang') return;
      // The backend's own delay does not listen to the signal: its reply may come late.
      const wait = step.afterMs ? this.clock.sleep(step.afterMs) : Promise.resolve();
      void wait.then(() => {
        if (step.kind === 'fail') {
          return settle({
            ok: false,
            failure: { failureClass: step.failureClass, code: step.code, detail: 'fake failure' },
          });
        }
        if (step.kind === 'ack') return settle({ ok: true, message: null, raw: new Uint8Array(0) });
        const raw = encoder.encode(JSON.stringify(step.message));
        ctx.onFrame?.('in', raw);
        if (settled) ctx.onLateReply?.(raw);
        else settle({ ok: true, message: step.message, raw });
      });
    });
  }
}

/** A well-formed reply to the request `frame` carrying `effects`. */
export function resultFor(frame: string, effects: JsonValue[], protocolVersion = 'draft'): JsonValue {
  const id = (JSON.parse(frame) as { id: JsonValue }).id;
  return { jsonrpc: '2.0', id, result: { protocolVersion, effects } };
}
