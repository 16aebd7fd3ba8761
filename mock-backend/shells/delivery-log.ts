/**
 * Where a mock keeps its deliveries until somebody reads the recording, laid out so that keeping
 * them costs the garbage collector next to nothing: each frame's bytes are copied into large byte
 * slabs and its numbers into one Float64Array. What a frame refers to is nearly always one of a
 * few values (connection id, decided behaviour, violations, HTTP method, path, header names and
 * values): a table holds each distinct value once and a row its index.
 *
 * Why: a mock answers many thousands of frames and is read a few times. Kept as objects, every
 * frame would leave several objects on the V8 heap for the collector to copy and mark, and the
 * round trip would slow down as the recording grows. Here a frame leaves no object of its own.
 */
import type { FrameViolation } from '../engine-inbound.js';
import type { Behaviour, FramingFault, HttpMeta, RecordEntry, Transport } from '../model.js';
import { isEntryList, type Recorded, type RecordedDelivery } from '../recorded-delivery.js';

/** Slab size: a frame's bytes never span two slabs, so a larger frame gets a slab of its own. */
const SLAB_BYTES = 1 << 20;

// The columns of a row, in one Float64Array (integers below 2^53, or times). Columns named
// "value" hold an index into the value table; -1 stands for null or absent.
const KIND = 0; // ROW_DELIVERY, or ROW_ENTRIES (then ENTRIES indexes `entryLists`)
const SLAB = 1;
const OFFSET = 2;
const LENGTH = 3;
const DELIVERY = 4;
const ATTEMPT = 5;
const RULE = 6;
const PLANNED = 7;
const TRANSPORT = 8;
const FAULT = 9;
const PRNG = 10;
const MONOTONIC = 11;
const WALL = 12;
const CONNECTION = 13; // value
const DECIDED = 14; // value
const VIOLATIONS = 15; // value
const HTTP_METHOD = 16; // value, -1 without HTTP meta
const HTTP_PATH = 17; // value
const HEADERS_AT = 18; // index of the first header in `headers` (name value, name value...)
const HEADERS_COUNT = 19;
const STRIDE = 20;
const ENTRIES = OFFSET;

const ROW_DELIVERY = 0;
const ROW_ENTRIES = 1;

const TRANSPORTS: readonly Transport[] = ['stdio', 'http', 'msw'];
const FAULTS: readonly (FramingFault | undefined)[] = [undefined, 'too-large', 'unterminated'];

/** Deliveries (and pre-built entries: process starts, engine errors) in arrival order. To forget them, drop the log. */
export class DeliveryLog {
  private rows = new Float64Array(256 * STRIDE);
  private count = 0;
  /** Distinct values (strings by content, objects by identity), and each one's index. */
  private readonly values: unknown[] = [];
  private readonly valueIndex = new Map<unknown, number>();
  /** Header names and values as value indexes, two per header. */
  private headers = new Float64Array(1024);
  private headersUsed = 0;
  private readonly entryLists: (readonly RecordEntry[])[] = [];
  private readonly slabs: Buffer[] = [];
  /** Bytes used in the last slab. */
  private used = 0;

  /** Rows kept. */
  get length(): number {
    return this.count;
  }

  /** Keeps a delivery (its bytes copied) or entries built already. */
  add(recorded: Recorded): void {
    const at = this.grow() * STRIDE;
    const rows = this.rows;
    if (isEntryList(recorded)) {
      rows[at + KIND] = ROW_ENTRIES;
      rows[at + ENTRIES] = this.entryLists.push(recorded) - 1;
      return;
    }
    const bytes = recorded.bytes;
    const slab = this.room(bytes.length);
    slab.set(bytes, this.used);
    rows[at + KIND] = ROW_DELIVERY;
    rows[at + SLAB] = this.slabs.length - 1;
    rows[at + OFFSET] = this.used;
    rows[at + LENGTH] = bytes.length;
    this.used += bytes.length;
    rows[at + DELIVERY] = recorded.delivery;
    rows[at + ATTEMPT] = recorded.attempt;
    rows[at + RULE] = recorded.rule ?? -1;
    rows[at + PLANNED] = recorded.planned ? 1 : 0;
    rows[at + TRANSPORT] = TRANSPORTS.indexOf(recorded.transport);
    rows[at + FAULT] = FAULTS.indexOf(recorded.fault);
    rows[at + PRNG] = recorded.prng;
    rows[at + MONOTONIC] = recorded.monotonic;
    rows[at + WALL] = recorded.wall;
    rows[at + CONNECTION] = this.value(recorded.connectionId);
    rows[at + DECIDED] = this.value(recorded.decided);
    rows[at + VIOLATIONS] = this.value(recorded.violations);
    const http = recorded.http;
    if (http === undefined) {
      rows[at + HTTP_METHOD] = -1;
      return;
    }
    rows[at + HTTP_METHOD] = this.value(http.method);
    rows[at + HTTP_PATH] = this.value(http.path);
    rows[at + HEADERS_AT] = this.headersUsed;
    let count = 0;
    for (const name in http.headers) {
      this.pushHeader(this.value(name), this.value(http.headers[name]));
      count++;
    }
    rows[at + HEADERS_COUNT] = count;
  }

  /** The row at `index` as it was added: a delivery (its bytes a view of the slab) or entries. */
  at(index: number): Recorded {
    const at = index * STRIDE;
    const rows = this.rows;
    if (rows[at + KIND] === ROW_ENTRIES) return this.entryLists[rows[at + ENTRIES] as number] ?? [];
    const slab = this.slabs[rows[at + SLAB] as number] as Buffer;
    const offset = rows[at + OFFSET] as number;
    const rule = rows[at + RULE] as number;
    const delivery: RecordedDelivery = {
      delivery: rows[at + DELIVERY] as number,
      transport: TRANSPORTS[rows[at + TRANSPORT] as number] as Transport,
      connectionId: this.values[rows[at + CONNECTION] as number] as string,
      monotonic: rows[at + MONOTONIC] as number,
      wall: rows[at + WALL] as number,
      bytes: slab.subarray(offset, offset + (rows[at + LENGTH] as number)),
      fault: FAULTS[rows[at + FAULT] as number],
      http: this.httpAt(at),
      attempt: rows[at + ATTEMPT] as number,
      rule: rule === -1 ? null : rule,
      planned: rows[at + PLANNED] === 1,
      decided: this.values[rows[at + DECIDED] as number] as Behaviour,
      prng: rows[at + PRNG] as number,
      violations: this.values[rows[at + VIOLATIONS] as number] as readonly FrameViolation[],
    };
    return delivery;
  }

  private httpAt(at: number): HttpMeta | undefined {
    const rows = this.rows;
    const method = rows[at + HTTP_METHOD] as number;
    if (method === -1) return undefined;
    const headers: Record<string, string> = {};
    const first = rows[at + HEADERS_AT] as number;
    const end = first + 2 * (rows[at + HEADERS_COUNT] as number);
    for (let i = first; i < end; i += 2) {
      const name = this.values[this.headers[i] as number] as string;
      headers[name] = this.values[this.headers[i + 1] as number] as string;
    }
    return {
      method: this.values[method] as string,
      path: this.values[rows[at + HTTP_PATH] as number] as string,
      headers,
    };
  }

  /** The index of `value` in the value table, added there on first sight. */
  private value(value: unknown): number {
    let index = this.valueIndex.get(value);
    if (index === undefined) {
      index = this.values.push(value) - 1;
      this.valueIndex.set(value, index);
    }
    return index;
  }

  private pushHeader(name: number, value: number): void {
    if (this.headersUsed + 2 > this.headers.length) this.headers = doubled(this.headers);
    this.headers[this.headersUsed++] = name;
    this.headers[this.headersUsed++] = value;
  }

  /** Makes room for one more row; returns its index. */
  private grow(): number {
    if ((this.count + 1) * STRIDE > this.rows.length) this.rows = doubled(this.rows);
    return this.count++;
  }

  /** The slab to copy `size` bytes into at `this.used`, starting a new one when they do not fit. */
  private room(size: number): Buffer {
    const last = this.slabs[this.slabs.length - 1];
    if (last !== undefined && this.used + size <= last.length) return last;
    // allocUnsafeSlow: a slab of its own, never a slice of node's shared pool.
    const slab = Buffer.allocUnsafeSlow(Math.max(SLAB_BYTES, size));
    this.slabs.push(slab);
    this.used = 0;
    return slab;
  }
}

function doubled(column: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const bigger = new Float64Array(column.length * 2);
  bigger.set(column);
  return bigger;
}
