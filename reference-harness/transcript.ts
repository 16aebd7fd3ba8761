import type { Clock } from '../protocol/clock.js';
import type { SendContext } from './transport.js';

/** One frame that crossed a transport, with direction and monotonic time. */
export interface TranscriptEntry {
  backendId: string;
  direction: 'out' | 'in';
  /** Monotonic milliseconds from the harness clock. */
  at: number;
  /** The frame as UTF-8 text, when it decodes. */
  text?: string;
  /** The frame as base64, when it is not valid UTF-8. */
  base64?: string;
  /** Delivery attempt the frame belongs to (1 for the first send). */
  attempt: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Collects the frames of one hook call in the order the transports report them. */
export class TranscriptRecorder {
  readonly entries: TranscriptEntry[] = [];

  constructor(private readonly clock: Clock) {}

  /**
   * Records one frame; bytes that are not UTF-8 are kept exactly, as base64. `text` is the frame
   * already decoded by the transport (it must be the exact UTF-8 decoding of `raw`); it spares a
   * second decode on every call.
   */
  record(backendId: string, direction: 'out' | 'in', raw: Uint8Array, attempt: number, text?: string): void {
    if (text !== undefined) {
      this.recordText(backendId, direction, text, attempt);
      return;
    }
    const entry: TranscriptEntry = { backendId, direction, at: this.clock.now(), attempt };
    try {
      entry.text = utf8.decode(raw);
    } catch {
      entry.base64 = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64');
    }
    this.entries.push(entry);
  }

  /** Records one frame given as the text that went out (or came in) as its UTF-8 encoding. */
  recordText(backendId: string, direction: 'out' | 'in', text: string, attempt: number): void {
    this.entries.push({ backendId, direction, at: this.clock.now(), attempt, text });
  }

  /** A frame callback for one delivery attempt, in the shape `SendContext.onFrame` expects. */
  onFrameFor(backendId: string, attempt: number): NonNullable<SendContext['onFrame']> {
    return (direction, raw, text) => this.record(backendId, direction, raw, attempt, text);
  }
}
