// What a settled call may look like after a hostile stream served by a real backend process
// (stdio) or server (HTTP). Unlike the in-process replay, the driver cannot see when the reply
// reached the harness, only the script's own pauses: a spawn or a busy machine may add to them,
// so a reply is firmly in time only well inside the deadline and firmly late only past it.
import { delayBefore, type Chunk, type HostileStream } from './hostile-model.js';
import { judgeBody, judgeLine, type Verdict } from './reply-oracle.js';
import { outcomesOf, type Outcome } from './stream-check.js';

/** Script delays at or under `inTimeMs` are firmly in time; at or over `lateMs`, firmly late. */
export interface TimingBands {
  inTimeMs: number;
  lateMs: number;
}

const deadline: Outcome = { kind: 'failure', failureClass: 'deadline-exceeded' };

function banded(outcomes: Outcome[], delayMs: number, bands: TimingBands, judgedLate: boolean): Outcome[] {
  if (delayMs >= bands.lateMs) return [deadline];
  return delayMs <= bands.inTimeMs && !judgedLate ? outcomes : [...outcomes, deadline];
}

/** True when the harness's audit record settled at or after its own deadline. */
export function judgedLate(
  audit: { startedAt: number; settledAt: number } | undefined,
  timeoutMs: number,
): boolean {
  return !audit || audit.settledAt >= audit.startedAt + timeoutMs;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Whether a complete line is a JSON frame that answers no request `requestId`: a persistent
 * harness reads past it (stdio.md, "Persistent lifecycle": replies are correlated by JSON-RPC id).
 * A line that is no frame at all (too long, not UTF-8, not JSON) is a framing fault instead.
 */
function answersNothing(line: Uint8Array, requestId: string, frameCap: number): boolean {
  const body = line.length > 0 && line[line.length - 1] === 0x0d ? line.subarray(0, line.length - 1) : line;
  if (body.length > frameCap) return false;
  let value: unknown;
  try {
    value = JSON.parse(strictUtf8.decode(body));
  } catch {
    return false;
  }
  const carries = (m: unknown) =>
    typeof m === 'object' && m !== null && !Array.isArray(m) && (m as { id?: unknown }).id === requestId;
  return Array.isArray(value) ? !value.some(carries) : !carries(value);
}

/**
 * A persistent stdio backend: the first line that is not a frame answering another request
 * answers; `exit` closes stdout after the script.
 */
export function stdioAllowed(
  bytes: Uint8Array,
  chunks: readonly Chunk[],
  requestId: string,
  end: 'stay' | 'exit',
  frameCap: number,
  bands: TimingBands,
  late: boolean,
): Outcome[] {
  let start = 0;
  for (let nl = bytes.indexOf(0x0a); nl !== -1; nl = bytes.indexOf(0x0a, start)) {
    const line = bytes.subarray(start, nl);
    if (!answersNothing(line, requestId, frameCap)) {
      const verdict = judgeLine(line, requestId, frameCap);
      return banded(outcomesOf(verdict), delayBefore(chunks, nl), bands, late);
    }
    start = nl + 1;
  }
  if (end === 'stay') return [deadline];
  // EOF: inside a frame is a framing fault; with nothing more written, a process failure.
  const verdict: Verdict = { kind: 'invalid', failureClass: bytes.length > start ? 'malformed' : 'process' };
  return banded(outcomesOf(verdict), delayBefore(chunks, bytes.length), bands, late);
}

/** `application/json` or any `+json` type, parameters allowed (anything else is a malformed response). */
export function isJsonType(contentType: string | null): boolean {
  if (contentType === null) return false;
  const essence = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return essence === 'application/json' || /^[^/\s]+\/[^/\s]+\+json$/.test(essence);
}

/** An HTTP backend: the status decides first, then the media type, then the complete body. */
export function httpAllowed(
  stream: HostileStream,
  bytes: Uint8Array,
  chunks: readonly Chunk[],
  requestId: string,
  maxBodyBytes: number,
  bands: TimingBands,
  late: boolean,
): Outcome[] {
  const http = stream.http;
  if (!http) throw new Error('httpAllowed needs an HTTP stream');
  const headAt = chunks[0] ? Math.max(0, chunks[0].hop) : Math.max(0, stream.timing.firstDelayMs);
  // A cut socket may lose an unflushed head: then it is a connection failure instead.
  const cut: Outcome[] = http.end === 'destroy' ? [{ kind: 'failure', failureClass: 'connection' }] : [];
  // Without a body byte the head is only flushed by the end of the response.
  if (bytes.length === 0 && http.end === 'hang') return [deadline];
  if (bytes.length === 0 && http.end === 'destroy') return banded(cut, headAt, bands, late);
  if (http.status !== 200) {
    const failureClass = http.status === 401 ? 'auth' : 'http-status';
    return banded([{ kind: 'failure', failureClass }, ...cut], headAt, bands, late);
  }
  if (!isJsonType(http.contentType)) {
    return banded([{ kind: 'failure', failureClass: 'malformed' }, ...cut], headAt, bands, late);
  }
  if (bytes.length > maxBodyBytes) {
    return banded(
      [{ kind: 'failure', failureClass: 'malformed' }],
      delayBefore(chunks, maxBodyBytes),
      bands,
      late,
    );
  }
  const lastAt = delayBefore(chunks, Math.max(0, bytes.length - 1));
  const complete = http.end === 'end' || http.contentLength;
  if (!complete) {
    return http.end === 'hang'
      ? [deadline]
      : banded([{ kind: 'failure', failureClass: 'connection' }], lastAt, bands, late);
  }
  return banded([...outcomesOf(judgeBody(bytes, requestId, maxBodyBytes)), ...cut], lastAt, bands, late);
}
