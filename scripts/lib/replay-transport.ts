// An in-process backend transport that replays one hostile stream through the same NDJSON framing
// as the persistent stdio transport (protocol/ndjson.ts): the next stdout item answers the request,
// a framing fault is a malformed reply, EOF before any item is a process failure, and the first
// item after the deadline is reported as a late reply. It records when the reply reached the harness.
import { NdjsonDecoder, type NdjsonItem } from '../../protocol/ndjson.js';
import type { BackendTransport, SendContext, TransportReply } from '../../reference-harness/index.js';
import type { Chunk } from './hostile-model.js';

/** What the replay saw, for the checks: all times are `performance.now()`. */
export interface ReplayRecord {
  requests: number;
  requestedAt?: number;
  /** When the first stdout item (frame or fault) was complete, and whether the request still listened. */
  firstItemAt?: number;
  firstItemWhileListening?: boolean;
  /** How the request was answered: by an item, by the abort, or by EOF with nothing. */
  answeredBy?: 'item' | 'abort' | 'eof';
  lateDelivered: boolean;
  /** Resolves once every chunk was fed (and EOF handled). */
  done: Promise<void>;
}

const encoder = new TextEncoder();

function pause(hop: number): Promise<void> {
  if (hop < 0) return Promise.resolve();
  if (hop === 0) return new Promise((resolve) => setImmediate(resolve));
  return new Promise((resolve) => setTimeout(resolve, hop));
}

function answerOf(item: NdjsonItem): TransportReply {
  if (item.kind === 'frame') return { ok: true, message: item.value, raw: item.bytes };
  return {
    ok: false,
    failure: { failureClass: 'malformed', code: `stdio.framing.${item.code}`, detail: item.message },
    raw: item.bytes,
  };
}

/** A transport whose single request is answered by replaying `chunks`, then `end`. */
export function createReplayTransport(
  chunks: readonly Chunk[],
  end: 'hang' | 'eof',
  maxFrameBytes: number,
): { transport: BackendTransport; record: ReplayRecord } {
  let markDone!: () => void;
  const record: ReplayRecord = {
    requests: 0,
    lateDelivered: false,
    done: new Promise<void>((resolve) => (markDone = resolve)),
  };

  const exchange = (ctx: SendContext, answer: (reply: TransportReply) => void) => {
    const decoder = new NdjsonDecoder({ maxFrameBytes });
    let answered = false;
    let sawItem = false;
    const settle = (reply: TransportReply, by: 'item' | 'abort' | 'eof') => {
      if (answered) return;
      answered = true;
      record.answeredBy = by;
      ctx.signal.removeEventListener('abort', onAbort);
      answer(reply);
    };
    const onAbort = () =>
      settle(
        { ok: false, failure: { failureClass: 'deadline-exceeded', code: 'deadline', detail: 'aborted' } },
        'abort',
      );
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const take = (items: NdjsonItem[]) => {
      for (const item of items) {
        if (sawItem) continue; // Later output would only matter to a later request.
        sawItem = true;
        record.firstItemAt = performance.now();
        record.firstItemWhileListening = !ctx.signal.aborted;
        ctx.onFrame?.('in', item.bytes);
        if (!ctx.signal.aborted) settle(answerOf(item), 'item');
        else {
          record.lateDelivered = true;
          ctx.onLateReply?.(item.bytes);
        }
      }
    };
    const feed = async () => {
      for (const chunk of chunks) {
        await pause(chunk === chunks[0] ? Math.max(0, chunk.hop) : chunk.hop);
        take(decoder.push(chunk.bytes));
      }
      if (end === 'eof') {
        take(decoder.end());
        if (!sawItem && !ctx.signal.aborted) {
          settle(
            {
              ok: false,
              failure: { failureClass: 'process', code: 'stdio.exit-before-reply', detail: 'EOF' },
            },
            'eof',
          );
        }
      }
    };
    void feed().finally(markDone);
  };

  const transport: BackendTransport = {
    kind: 'injected',
    request(frame, ctx) {
      record.requests += 1;
      ctx.onFrame?.('out', encoder.encode(frame));
      if (record.requests > 1) {
        return Promise.resolve({
          ok: false,
          failure: {
            failureClass: 'connection',
            code: 'replay.second-request',
            detail: 'one request per stream',
          },
        });
      }
      record.requestedAt = performance.now();
      return new Promise<TransportReply>((resolve) => {
        if (ctx.signal.aborted) {
          record.answeredBy = 'abort';
          markDone();
          resolve({
            ok: false,
            failure: { failureClass: 'deadline-exceeded', code: 'deadline', detail: 'aborted' },
          });
          return;
        }
        exchange(ctx, resolve);
      });
    },
    notify: () => Promise.resolve({ ok: true }),
    close: () => Promise.resolve(),
    livePids: () => [],
  };
  return { transport, record };
}
