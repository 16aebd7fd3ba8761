/**
 * When a mock's shells carried out each planned action, kept until the recording is read. A
 * row is a run of consecutive actions of one delivery carried out at one instant (an immediate
 * HTTP reply is head, body and end at once), as numbers in one Float64Array: noting a reply leaves
 * no object on the heap, like the DeliveryLog it sits beside.
 */
import type { Instant } from '../model.js';

const DELIVERY = 0;
const FROM = 1;
const COUNT = 2;
const MONOTONIC = 3;
const WALL = 4;
/** Index into `connections` for a process start (delivery 0 of each stdio process), else -1. */
const CONNECTION = 5;
const STRIDE = 6;

/** One carried-out action, as `drain` hands it on. */
export interface PerformedAction {
  delivery: number;
  /** The process for delivery 0 (a process start), which every stdio process of a mock has. */
  connectionId: string | undefined;
  /** Its index among the delivery's planned actions. */
  index: number;
  at: Instant;
}

/** Carried-out actions in the order they were noted. To forget them, drop the log. */
export class PerformedLog {
  private rows = new Float64Array(64 * STRIDE);
  private count = 0;
  private readonly connections: string[] = [];

  get length(): number {
    return this.count;
  }

  /** Notes actions `from` to `from + count - 1` of `delivery` as carried out at `monotonic`/`wall`. */
  add(
    delivery: number,
    from: number,
    count: number,
    monotonic: number,
    wall: number,
    connectionId: string,
  ): void {
    if ((this.count + 1) * STRIDE > this.rows.length) {
      const grown = new Float64Array(this.rows.length * 2);
      grown.set(this.rows);
      this.rows = grown;
    }
    const at = this.count * STRIDE;
    const rows = this.rows;
    rows[at + DELIVERY] = delivery;
    rows[at + FROM] = from;
    rows[at + COUNT] = count;
    rows[at + MONOTONIC] = monotonic;
    rows[at + WALL] = wall;
    rows[at + CONNECTION] = delivery === 0 ? this.connections.push(connectionId) - 1 : -1;
    this.count++;
  }

  /** Hands on every action noted so far, oldest first, and empties the log. */
  drain(visit: (performed: PerformedAction) => void): void {
    const rows = this.rows;
    for (let row = 0; row < this.count; row++) {
      const at = row * STRIDE;
      const connection = rows[at + CONNECTION] as number;
      const from = rows[at + FROM] as number;
      for (let k = 0; k < (rows[at + COUNT] as number); k++) {
        visit({
          delivery: rows[at + DELIVERY] as number,
          connectionId: connection === -1 ? undefined : this.connections[connection],
          index: from + k,
          at: { monotonic: rows[at + MONOTONIC] as number, wall: rows[at + WALL] as number },
        });
      }
    }
    this.count = 0;
    this.connections.length = 0;
  }
}
