/**
 * Turns one behaviour into transport-neutral actions at an offset (ms after the frame arrived).
 * Pure apart from the context it is handed: PRNG draws and violations accumulate there.
 */
import { nextRandom } from './prng.js';
import { BEHAVIOUR_TRANSPORTS, type Action, type Behaviour, type Transport } from './model.js';
import { PROTOCOL_VERSION } from '../protocol/wire-types.js';
import type { DecodedFrame, FrameViolation } from './engine-inbound.js';
import { decodeBytes } from './recording.js';
import { sha256Hex } from '../protocol/content-upload.js';
import {
  framed,
  malformedUtf8Parts,
  replyText,
  successMessage,
  type ReplyContext,
} from './engine-replies.js';

/** The planner's context: reply facts plus the per-step mutable bits. */
export interface PlanContext extends ReplyContext {
  /** Attempt number of the frame's event id, for `sequence`. */
  attempt: number;
  /** PRNG state; advanced by each `probability` draw. */
  prng: number;
  violations: FrameViolation[];
  /** The frame's exact bytes and delivery number, for an upload receipt. */
  received?: { bytes: Uint8Array; delivery: number };
}

/** Actions plus the behaviour actually carried out (sequence and probability choices made). */
export interface Plan {
  actions: Action[];
  chosen: Behaviour;
}

// Frozen: the one-write reply shares it with every head it plans (shells only read actions).
const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });
const DEFAULT_CHALLENGE = 'Bearer realm="ahp-mock"';

/** The planning context of a decoded frame: a request's id is mirrored, anything else gets null. */
export function planContext(
  transport: Transport,
  frame: DecodedFrame,
  attempt: number,
  prng: number,
  violations: FrameViolation[],
  received?: { bytes: Uint8Array; delivery: number },
): PlanContext {
  return {
    ...(received === undefined ? {} : { received }),
    transport,
    replyId: frame.kind === 'request' && frame.id !== undefined ? frame.id : null,
    protocolVersion: frame.protocolVersion ?? PROTOCOL_VERSION,
    attempt,
    prng,
    violations,
  };
}

/**
 * The actions a delivery gets for the decided behaviour, in time order (list order kept for equal
 * offsets), and the behaviour carried out. A pure function of the behaviour and the context's
 * initial content (the context's PRNG state advances, its violations receive what planning finds):
 * a recording plans a delivery again when it is read instead of keeping its actions.
 */
export function planDelivery(decided: Behaviour, ctx: PlanContext): Plan {
  // Nearly every frame's answer: what planBehaviour makes of it at offset 0 (it applies to every
  // transport, and its one write is in time order), without the walk there.
  if (decided.kind === 'respond') return { actions: replyWrite(ctx, 0, decided), chosen: decided };
  const plan = planBehaviour(decided, ctx, 0);
  return { actions: stableByTime(plan.actions), chosen: plan.chosen };
}

/** Sorts by offset, keeping list order for equal offsets (Array.prototype.sort is stable). */
function stableByTime(actions: Action[]): Action[] {
  // Most plans are already in order (an immediate reply is one write): skip the copy and sort.
  for (let i = 1; i < actions.length; i++) {
    if ((actions[i] as Action).afterMs < (actions[i - 1] as Action).afterMs) {
      return [...actions].sort((a, b) => a.afterMs - b.afterMs);
    }
  }
  return actions;
}

/** Plans a behaviour. Never throws for any behaviour value, typed or not. */
function planBehaviour(b: Behaviour, ctx: PlanContext, offset: number): Plan {
  const at = Math.max(0, offset);
  const allowed = BEHAVIOUR_TRANSPORTS[b.kind] as readonly string[] | undefined;
  if (!allowed || !allowed.includes(ctx.transport)) return notApplicable(b, ctx, at);
  switch (b.kind) {
    case 'delay': {
      const sub = planBehaviour(b.then, ctx, at + Math.max(0, b.ms));
      return { actions: sub.actions, chosen: { kind: 'delay', ms: b.ms, then: sub.chosen } };
    }
    case 'sequence': {
      const step = b.steps[ctx.attempt - 1] ?? b.then ?? b.steps[b.steps.length - 1] ?? { kind: 'respond' };
      return planBehaviour(step, ctx, at);
    }
    case 'probability': {
      const draw = nextRandom(ctx.prng);
      ctx.prng = draw.state;
      return planBehaviour(draw.value < b.p ? b.behaviour : b.otherwise, ctx, at);
    }
    case 'exit':
    case 'signal': {
      const sub = b.reply ? planBehaviour(b.reply, ctx, at) : undefined;
      const last = Math.max(at, ...(sub?.actions ?? []).map((a) => a.afterMs));
      const end: Action =
        b.kind === 'exit'
          ? { type: 'exit', afterMs: last, code: b.code }
          : { type: 'signal', afterMs: last, signal: b.signal };
      const chosen: Behaviour = sub ? { ...b, reply: sub.chosen } : b;
      return { actions: [...(sub?.actions ?? []), end], chosen };
    }
    default:
      return { actions: planLeaf(b, ctx, at), chosen: b };
  }
}

type Leaf = Exclude<Behaviour, { kind: 'delay' | 'sequence' | 'probability' | 'exit' | 'signal' }>;

function planLeaf(b: Leaf, ctx: PlanContext, at: number): Action[] {
  switch (b.kind) {
    case 'respond':
    case 'deny':
    case 'rpc-error':
    case 'mismatched-id':
    case 'not-jsonrpc':
    case 'malformed-json':
      return replyWrite(ctx, at, b);
    case 'malformed-utf8': {
      const [first, second] = malformedUtf8Parts(ctx);
      if (!b.split) return body(ctx, at, [[0, concat(first, second)]]);
      return body(ctx, at, [
        [0, first],
        [Math.max(0, b.splitDelayMs ?? 5), second],
      ]);
    }
    case 'raw':
      return body(
        ctx,
        at,
        b.chunks.map((c) => [Math.max(0, c.afterMs ?? 0), decodeBytes(withRequestId(c, ctx))]),
      );
    case 'pretty':
      return body(ctx, at, [
        [0, framed(ctx, JSON.stringify(successMessage(ctx, b.effects ?? []), null, b.indent ?? 2))],
      ]);
    case 'slow-body': {
      const bytes = framed(ctx, JSON.stringify(successMessage(ctx, b.effects ?? [])));
      const size = Math.max(1, Math.floor(b.chunkBytes));
      const chunks: Array<[number, Uint8Array]> = [];
      for (let i = 0; i * size < bytes.length; i++) {
        chunks.push([i * Math.max(0, b.intervalMs), bytes.subarray(i * size, (i + 1) * size)]);
      }
      return body(ctx, at, chunks);
    }
    case 'twice': {
      const bytes = framed(ctx, JSON.stringify(successMessage(ctx, b.effects ?? [])));
      return body(ctx, at, [
        [0, bytes],
        [0, bytes],
      ]);
    }
    case 'reset': {
      const bytes = framed(ctx, JSON.stringify(successMessage(ctx)));
      const prefix = bytes.subarray(0, Math.max(0, Math.min(bytes.length, b.afterBytes ?? 0)));
      const out: Action[] = [];
      if (ctx.transport !== 'stdio' && prefix.length > 0) out.push(head(at, 200, JSON_HEADERS));
      if (prefix.length > 0) out.push({ type: 'write', afterMs: at, bytes: prefix });
      out.push({ type: 'reset', afterMs: at });
      return out;
    }
    case 'hang':
      return [{ type: 'hang', afterMs: at }];
    case 'silent':
      if (ctx.transport === 'stdio') return [{ type: 'end', afterMs: at }];
      return [head(at, 202, {}), { type: 'end', afterMs: at }];
    case 'http-status': {
      const headers: Record<string, string> = {};
      if (b.body !== undefined) headers['content-type'] = b.contentType ?? 'text/plain; charset=utf-8';
      else if (b.contentType !== undefined) headers['content-type'] = b.contentType;
      Object.assign(headers, lowerKeys(b.headers ?? {}));
      return headAndBody(at, b.status, headers, b.body ? decodeBytes(b.body) : undefined);
    }
    case 'http-redirect':
      return headAndBody(at, b.status ?? 307, { location: b.location });
    case 'http-unauthorized':
      return headAndBody(at, 401, { 'www-authenticate': b.challenge ?? DEFAULT_CHALLENGE });
    case 'upload-receipt':
      return uploadReceipt(b, ctx, at);
    case 'wrong-content-type':
      return headAndBody(
        at,
        200,
        { 'content-type': b.contentType ?? 'text/plain' },
        framed(ctx, JSON.stringify(successMessage(ctx, b.effects ?? []))),
      );
  }
}

/**
 * `201` with the JSON receipt of the bytes received: a ref the mock allocates (the delivery
 * number and a digest prefix, so no sender can guess it from what it sent alone), their size and
 * digest, each replaced by what the behaviour scripts.
 */
function uploadReceipt(
  b: Extract<Behaviour, { kind: 'upload-receipt' }>,
  ctx: PlanContext,
  at: number,
): Action[] {
  const bytes = ctx.received?.bytes ?? new Uint8Array(0);
  const digest = sha256Hex(bytes);
  const receipt = {
    ref: b.ref ?? `mock-upload-${ctx.received?.delivery ?? 0}-${digest.slice(0, 12)}`,
    size: b.size ?? bytes.length,
    sha256: b.sha256 ?? digest,
  };
  return headAndBody(at, b.status ?? 201, JSON_HEADERS, new TextEncoder().encode(JSON.stringify(receipt)));
}

/** The answer to a behaviour the transport cannot carry out (see the table in model.ts). */
function notApplicable(b: Behaviour, ctx: PlanContext, at: number): Plan {
  // Untyped input may carry any kind (or none); name it without trusting it.
  const kind = String((b as { kind?: unknown } | null)?.kind);
  const text = `mock-backend: behaviour '${kind}' does not apply to ${ctx.transport}`;
  ctx.violations.push({ code: 'behaviour-not-applicable', message: text });
  if (ctx.transport === 'stdio') {
    return {
      actions: [
        { type: 'log', afterMs: at, text },
        { type: 'end', afterMs: at },
      ],
      chosen: b,
    };
  }
  return {
    actions: headAndBody(
      at,
      501,
      { 'content-type': 'text/plain; charset=utf-8' },
      new TextEncoder().encode(`${text}\n`),
    ),
    chosen: b,
  };
}

/** A reply-shaped behaviour's one write (its text framed for the transport), due at `at`. */
function replyWrite(ctx: PlanContext, at: number, b: Parameters<typeof replyText>[1]): Action[] {
  return oneWrite(ctx, at, framed(ctx, replyText(ctx, b)));
}

/** `body` with one chunk due at `at`, built directly: it is the answer to nearly every frame. */
function oneWrite(ctx: PlanContext, at: number, bytes: Uint8Array): Action[] {
  const write: Action = { type: 'write', afterMs: at, bytes };
  const end: Action = { type: 'end', afterMs: at };
  if (ctx.transport === 'stdio') return [write, end];
  return [{ type: 'head', afterMs: at, status: 200, headers: JSON_HEADERS }, write, end];
}

/** A reply body written in chunks at offsets from `at` (HTTP: after a 200 JSON head), then ended. */
function body(ctx: PlanContext, at: number, chunks: Array<[number, Uint8Array]>): Action[] {
  const out: Action[] = ctx.transport === 'stdio' ? [] : [head(at, 200, JSON_HEADERS)];
  let last = at;
  for (const [delay, bytes] of chunks) {
    last = Math.max(last, at + delay);
    out.push({ type: 'write', afterMs: at + delay, bytes });
  }
  // Chunks come in offset order unless a scenario listed them otherwise (raw chunks may).
  if (chunks.some(([delay], i) => i > 0 && delay < (chunks[i - 1] as [number, Uint8Array])[0])) {
    out.sort((a, b) => a.afterMs - b.afterMs);
  }
  out.push({ type: 'end', afterMs: last });
  return out;
}

function headAndBody(
  at: number,
  status: number,
  headers: Record<string, string>,
  bytes?: Uint8Array,
): Action[] {
  const out: Action[] = [head(at, status, headers)];
  if (bytes && bytes.length > 0) out.push({ type: 'write', afterMs: at, bytes });
  out.push({ type: 'end', afterMs: at });
  return out;
}

function head(at: number, status: number, headers: Readonly<Record<string, string>>): Action {
  return { type: 'head', afterMs: at, status, headers: { ...headers } };
}

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * In the text of a `raw` chunk, replaced by the JSON encoding of the id of the request being
 * answered (a string with its quotes, a number, or null for a frame that was no request): exact
 * reply bytes that still answer the id the harness sent, whatever it chose.
 */
export const REQUEST_ID_TEMPLATE = '{{request.id}}';

type RawChunk = Extract<Behaviour, { kind: 'raw' }>['chunks'][number];

/** A raw chunk with the request id filled in where its text names REQUEST_ID_TEMPLATE. */
function withRequestId(chunk: RawChunk, ctx: PlanContext): RawChunk {
  if (!('text' in chunk) || !chunk.text.includes(REQUEST_ID_TEMPLATE)) return chunk;
  return { ...chunk, text: chunk.text.split(REQUEST_ID_TEMPLATE).join(JSON.stringify(ctx.replyId)) };
}
