/**
 * Keeps the last `limit` bytes of a stream (a driver's stderr), so a chatty driver cannot grow
 * the suite's memory while its final words stay available for diagnostics.
 */
export class BoundedTail {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Bytes dropped from the front so far. */
  dropped = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Uint8Array): void {
    if (this.limit <= 0) {
      this.dropped += chunk.length;
      return;
    }
    let buf = Buffer.from(chunk);
    if (buf.length >= this.limit) {
      this.dropped += this.size + buf.length - this.limit;
      buf = buf.subarray(buf.length - this.limit);
      this.chunks = [Buffer.from(buf)];
      this.size = buf.length;
      return;
    }
    this.chunks.push(buf);
    this.size += buf.length;
    while (this.size > this.limit) {
      const head = this.chunks[0] as Buffer;
      const excess = this.size - this.limit;
      if (head.length <= excess) {
        this.chunks.shift();
        this.size -= head.length;
        this.dropped += head.length;
      } else {
        this.chunks[0] = head.subarray(excess);
        this.size -= excess;
        this.dropped += excess;
      }
    }
  }

  /** Bytes pushed so far, dropped ones included: a mark for `textSince`. */
  get total(): number {
    return this.dropped + this.size;
  }

  /** The kept bytes pushed after `mark` (a `total` read earlier) as text; all kept when older. */
  textSince(mark: number): string {
    const skip = Math.max(0, mark - this.dropped);
    return Buffer.concat(this.chunks).subarray(skip).toString('utf8');
  }

  /** The kept bytes as text; a character cut at the front shows as U+FFFD. */
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
