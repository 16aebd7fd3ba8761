/**
 * Splits a stdio byte stream into frames for the engine: one line per LF, bytes as sent (a CR
 * before the LF is dropped, as NDJSON readers do). It neither decodes nor parses: the engine does
 * that once per frame. Framing faults travel with the line: a line past the size cap keeps no
 * bytes, and a last line the stream ended without its LF is marked unterminated. A chunk handed
 * to `push` must not be changed afterwards (node streams never reuse one).
 */
import { DEFAULT_MAX_FRAME_BYTES } from '../../protocol/ndjson.js';
import type { FramingFault } from '../model.js';

/** One line, or what is left of it, with its framing fault if any. */
export interface SplitLine {
  bytes: Uint8Array;
  fault?: FramingFault;
}

const LF = 0x0a;
const CR = 0x0d;
const EMPTY = new Uint8Array(0);

/** Incremental line splitter with a size cap per line (LF excluded). */
export class LineSplitter {
  private parts: Uint8Array[] = [];
  private size = 0;
  /** Set once the current line passed the cap: its bytes are dropped until its LF. */
  private oversized = false;

  constructor(private readonly maxBytes = DEFAULT_MAX_FRAME_BYTES) {}

  /** Feeds one chunk; returns the lines it completed. */
  push(chunk: Uint8Array): SplitLine[] {
    const out: SplitLine[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(LF); nl !== -1; nl = chunk.indexOf(LF, start)) {
      out.push(this.take(chunk.subarray(start, nl)));
      start = nl + 1;
    }
    // Most chunks end with their last line: no view of the empty rest.
    if (start < chunk.length) this.append(chunk.subarray(start));
    return out;
  }

  /** Ends the stream: a line still open is returned, marked unterminated (or too large). */
  end(): SplitLine[] {
    if (this.size === 0 && !this.oversized) return [];
    const line = this.take(EMPTY);
    return [line.fault === 'too-large' ? line : { bytes: line.bytes, fault: 'unterminated' }];
  }

  private append(bytes: Uint8Array): void {
    if (bytes.length === 0 || this.oversized) return;
    // +1 leaves room for a CR that will be dropped.
    if (this.size + bytes.length > this.maxBytes + 1) {
      this.oversized = true;
      this.parts = [];
      this.size = 0;
      return;
    }
    // A copy (Buffer#slice would not copy): the caller's chunk may be reused once push returns.
    this.parts.push(new Uint8Array(bytes));
    this.size += bytes.length;
  }

  private take(tail: Uint8Array): SplitLine {
    if (this.oversized || this.size + tail.length > this.maxBytes + 1) {
      this.oversized = false;
      this.parts = [];
      this.size = 0;
      return { bytes: EMPTY, fault: 'too-large' };
    }
    let line: Uint8Array;
    // A line whole within one chunk is a view of it (stream chunks are fresh per read and never
    // reused); a line spread over chunks is joined from the copies `append` kept.
    if (this.parts.length === 0) line = tail;
    else {
      line = Buffer.concat([...this.parts, tail]);
      this.parts = [];
      this.size = 0;
    }
    if (line.length > 0 && line[line.length - 1] === CR) line = line.subarray(0, line.length - 1);
    return line.length > this.maxBytes ? { bytes: EMPTY, fault: 'too-large' } : { bytes: line };
  }
}
