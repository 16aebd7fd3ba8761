// A hostile backend byte stream as plain data: what the backend writes for one request, how the
// bytes are corrupted, and when each piece arrives. Plain JSON so a failing stream prints and replays.

/** The reply shapes a backend may send; every one but `no-effect`, `deny` and `padded` is broken somehow. */
export const REPLY_SHAPES = [
  'no-effect',
  'deny',
  'padded',
  'unknown-envelope-field',
  'deny-bad-code',
  'deny-no-reason',
  'deny-empty-reason',
  'deny-extra-field',
  'deny-extensions',
  'two-denies',
  'deny-then-unknown',
  'unadvertised-allow',
  'unknown-effect',
  'wrong-id',
  'numeric-id',
  'null-id',
  'missing-id',
  'empty-id',
  'rpc-error',
  'unsupported-version-error',
  'unsupported-event-error',
  'error-wrong-id',
  'bad-error-object',
  'result-and-error',
  'missing-effects',
  'missing-version',
  'wrong-version',
  'legacy-version',
  'effects-not-array',
  'result-not-object',
  'manifest',
  'no-jsonrpc',
  'jsonrpc-1',
  'batch',
  'request-echo',
] as const;
export type ReplyShape = (typeof REPLY_SHAPES)[number];

/** One reply line's content; `bytes` sizes a `padded` line exactly (newline excluded). */
export interface ReplySpec {
  shape: ReplyShape;
  reason?: string;
  code?: string;
  bytes?: number;
}

export type Eol = 'lf' | 'crlf' | 'none';

/** One piece of what the backend writes. */
export type Segment =
  | { kind: 'reply'; reply: ReplySpec; eol: Eol }
  | { kind: 'text'; text: string; eol: Eol }
  | { kind: 'bytes'; b64: string; eol: Eol }
  | { kind: 'flood'; line: string; count: number }
  | { kind: 'huge'; size: number; fill: string };

/** A byte-level fault applied to the joined stream; `at` is a position in 1/10000ths of its length. */
export type Corruption =
  | { op: 'flip'; at: number; xor: number }
  | { op: 'truncate'; at: number }
  | { op: 'insert'; at: number; bytes: number[] };

/** When the pieces arrive: the first after `firstDelayMs`, later splits after `hop` (-1 same tick, 0 next turn, n ms). */
export interface Timing {
  firstDelayMs: number;
  splits: Array<{ at: number; hop: number }>;
}

/** How an HTTP backend frames the stream: the body is the stream's bytes. */
export interface HttpShape {
  status: number;
  /** The content-type header, or null for none. */
  contentType: string | null;
  /** Send an exact content-length (otherwise chunked). */
  contentLength: boolean;
  /** After the last byte: finish, cut the socket, or leave the response open. */
  end: 'end' | 'destroy' | 'hang';
}

/** One request's hostile exchange, and the subscription it is judged under. */
export interface HostileStream {
  category: string;
  policy: 'fail-open' | 'fail-closed';
  timeoutMs: number;
  segments: Segment[];
  corruptions: Corruption[];
  timing: Timing;
  /** After the last byte: keep the pipe open and silent, or close it (stdio EOF). */
  end: 'hang' | 'eof';
  /** Set for streams served over HTTP. */
  http?: HttpShape;
}

/** One piece of the stream as delivered: bytes, and the pause before them (`hop` as in Timing). */
export interface Chunk {
  bytes: Uint8Array;
  hop: number;
}

const encoder = new TextEncoder();

function envelope(id: unknown, body: Record<string, unknown>): Record<string, unknown> {
  return { jsonrpc: '2.0', id, ...body };
}

const ok = (effects: unknown[]) => ({ result: { protocolVersion: 'draft', effects } });

/** The JSON text of one reply to request `id` (no newline). */
export function replyText(spec: ReplySpec, id: string): string {
  const reason = spec.reason ?? 'Blocked by policy.';
  const deny: Record<string, unknown> = { type: 'deny', reason };
  if (spec.code !== undefined) deny.code = spec.code;
  const bodies: Record<ReplyShape, () => unknown> = {
    'no-effect': () => envelope(id, ok([])),
    deny: () => envelope(id, ok([deny])),
    padded: () => padded(id, spec.bytes ?? 0),
    'unknown-envelope-field': () => ({
      ...envelope(id, { result: { protocolVersion: 'draft', effects: [], note: 1 } }),
      trace: 'x',
    }),
    'deny-bad-code': () => envelope(id, ok([{ type: 'deny', reason, code: 'not a dns name' }])),
    'deny-no-reason': () => envelope(id, ok([{ type: 'deny' }])),
    'deny-empty-reason': () => envelope(id, ok([{ type: 'deny', reason: '' }])),
    'deny-extra-field': () => envelope(id, ok([{ ...deny, severity: 'high' }])),
    'deny-extensions': () => envelope(id, ok([{ ...deny, extensions: { 'com.example.x': 1 } }])),
    'two-denies': () => envelope(id, ok([deny, { type: 'deny', reason: 'again' }])),
    'deny-then-unknown': () => envelope(id, ok([deny, { type: 'com.example.custom' }])),
    'unadvertised-allow': () => envelope(id, ok([{ type: 'allow' }])),
    'unknown-effect': () => envelope(id, ok([{ type: 'teleport' }])),
    'wrong-id': () => envelope(`${id}-other`, ok([])),
    'numeric-id': () => envelope(7, ok([])),
    'null-id': () => envelope(null, ok([])),
    'missing-id': () => ({ jsonrpc: '2.0', ...ok([]) }),
    'empty-id': () => envelope('', ok([])),
    'rpc-error': () => envelope(id, { error: { code: -32603, message: 'internal error' } }),
    'unsupported-version-error': () =>
      envelope(id, { error: { code: -32001, message: 'unsupported', data: { supported: ['0.1'] } } }),
    'unsupported-event-error': () => envelope(id, { error: { code: -32002, message: 'unsupported event' } }),
    'error-wrong-id': () => envelope(`${id}-other`, { error: { code: -32603, message: 'x' } }),
    'bad-error-object': () => envelope(id, { error: { code: 'E', message: 1 } }),
    'result-and-error': () => envelope(id, { ...ok([]), error: { code: -32603, message: 'x' } }),
    'missing-effects': () => envelope(id, { result: { protocolVersion: 'draft' } }),
    'missing-version': () => envelope(id, { result: { effects: [] } }),
    'wrong-version': () => envelope(id, { result: { protocolVersion: '1900-01-01', effects: [] } }),
    'legacy-version': () => envelope(id, { result: { protocolVersion: '0.1', effects: [] } }),
    'effects-not-array': () => envelope(id, { result: { protocolVersion: 'draft', effects: {} } }),
    'result-not-object': () => envelope(id, { result: 'ok' }),
    manifest: () => envelope(id, { result: { protocolVersion: 'draft', effects: [], manifest: {} } }),
    'no-jsonrpc': () => ({ id, ...ok([]) }),
    'jsonrpc-1': () => ({ jsonrpc: '1.0', id, ...ok([]) }),
    batch: () => [envelope(id, ok([]))],
    'request-echo': () => envelope(id, { method: 'hooks/intercept', params: {} }),
  };
  return JSON.stringify(bodies[spec.shape]());
}

/** A no-effect reply whose text is exactly `bytes` long when that is reachable (ASCII padding). */
function padded(id: string, bytes: number): unknown {
  const base = JSON.stringify({ ...envelope(id, ok([])), pad: '' });
  return { ...envelope(id, ok([])), pad: 'p'.repeat(Math.max(0, bytes - base.length)) };
}

const EOL: Record<Eol, string> = { lf: '\n', crlf: '\r\n', none: '' };

function segmentBytes(segment: Segment, id: string): Uint8Array {
  switch (segment.kind) {
    case 'reply':
      return encoder.encode(replyText(segment.reply, id) + EOL[segment.eol]);
    case 'text':
      return encoder.encode(segment.text + EOL[segment.eol]);
    case 'bytes':
      return Buffer.concat([Buffer.from(segment.b64, 'base64'), Buffer.from(EOL[segment.eol])]);
    case 'flood':
      return encoder.encode(`${segment.line}\n`.repeat(segment.count));
    case 'huge': {
      const line = Buffer.alloc(segment.size + 1, segment.fill);
      line[segment.size] = 0x0a;
      return line;
    }
  }
}

const position = (at: number, length: number) => Math.min(length, Math.floor((at / 10_000) * length));

/** The whole stream for request `id`: segments joined, then every corruption applied in order. */
export function streamBytes(stream: HostileStream, id: string): Uint8Array {
  let bytes: Uint8Array = Buffer.concat(stream.segments.map((s) => segmentBytes(s, id)));
  for (const c of stream.corruptions) {
    const at = position(c.at, bytes.length);
    if (c.op === 'flip') {
      if (at < bytes.length) bytes[at] = (bytes[at] as number) ^ c.xor;
    } else if (c.op === 'truncate') {
      bytes = bytes.subarray(0, at);
    } else {
      bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(c.bytes), bytes.subarray(at)]);
    }
  }
  return bytes;
}

/** Cuts the stream into delivery chunks at the timing's split points (an empty stream has none). */
export function chunksOf(bytes: Uint8Array, timing: Timing): Chunk[] {
  if (bytes.length === 0) return [];
  const cuts = new Map<number, number>();
  for (const s of timing.splits) {
    const at = position(s.at, bytes.length);
    if (at > 0 && at < bytes.length && !cuts.has(at)) cuts.set(at, s.hop);
  }
  const points = [...cuts.keys()].sort((a, b) => a - b);
  const chunks: Chunk[] = [];
  let start = 0;
  let hop = timing.firstDelayMs;
  for (const at of points) {
    chunks.push({ bytes: bytes.subarray(start, at), hop });
    hop = cuts.get(at) as number;
    start = at;
  }
  chunks.push({ bytes: bytes.subarray(start), hop });
  return chunks;
}

/** Milliseconds of timer delay before the chunk that completes byte `index` arrives (hops under 1 ms count 0). */
export function delayBefore(chunks: readonly Chunk[], index: number): number {
  let total = 0;
  let seen = 0;
  for (const chunk of chunks) {
    total += Math.max(0, chunk.hop);
    seen += chunk.bytes.length;
    if (seen > index) return total;
  }
  return total;
}

/** About how many bytes `streamBytes` will produce, without building them (ids count 40 bytes). */
export function estimatedBytes(stream: HostileStream): number {
  let total = 0;
  for (const s of stream.segments) {
    if (s.kind === 'huge') total += s.size + 1;
    else if (s.kind === 'flood') total += (s.line.length + 1) * s.count;
    else if (s.kind === 'reply')
      total += Math.max(s.reply.bytes ?? 0, 200 + 4 * (s.reply.reason?.length ?? 0));
    else total += s.kind === 'text' ? 3 * s.text.length + 2 : s.b64.length;
  }
  return total;
}

/** One chunk as a real backend process receives it in its script: runs of one byte stay compact. */
export interface ScriptChunk {
  hop: number;
  pieces: Array<{ b64: string } | { fill: number; size: number }>;
}

/** Runs of one byte at least this long travel as `{fill, size}` instead of base64. */
const RUN_BYTES = 64;

/** Encodes delivery chunks for a backend process, which rebuilds the exact bytes. */
export function scriptChunks(chunks: readonly Chunk[]): ScriptChunk[] {
  return chunks.map((chunk) => {
    const pieces: ScriptChunk['pieces'] = [];
    const bytes = Buffer.from(chunk.bytes.buffer, chunk.bytes.byteOffset, chunk.bytes.byteLength);
    let literal = 0;
    let i = 0;
    while (i < bytes.length) {
      let j = i + 1;
      while (j < bytes.length && bytes[j] === bytes[i]) j++;
      if (j - i >= RUN_BYTES) {
        if (literal < i) pieces.push({ b64: bytes.subarray(literal, i).toString('base64') });
        pieces.push({ fill: bytes[i] as number, size: j - i });
        literal = j;
      }
      i = j;
    }
    if (literal < bytes.length) pieces.push({ b64: bytes.subarray(literal).toString('base64') });
    return { hop: chunk.hop, pieces };
  });
}
