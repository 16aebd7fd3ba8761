import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DeliveryLog } from './delivery-log.js';
import type { FrameViolation } from '../engine-inbound.js';
import type { Behaviour, RecordEntry } from '../model.js';
import { isEntryList, type Recorded, type RecordedDelivery } from '../recorded-delivery.js';

const RESPOND: Behaviour = { kind: 'respond' };
const DENY: Behaviour = { kind: 'deny', reason: 'no' };
const NONE: readonly FrameViolation[] = [];

const header = fc.constantFrom('host', 'content-type', 'content-length', 'authorization', 'x-ünïcode');
const delivery = fc
  .record({
    delivery: fc.integer({ min: 1, max: 1_000_000 }),
    transport: fc.constantFrom('stdio' as const, 'http' as const, 'msw' as const),
    connectionId: fc.constantFrom('101', 'c1', 'c2', 'm7'),
    monotonic: fc.double({ min: 0, max: 1e9, noNaN: true }),
    wall: fc.integer({ min: 0, max: 2 ** 45 }),
    bytes: fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.constant(new Uint8Array(0))),
    fault: fc.constantFrom(undefined, 'too-large' as const, 'unterminated' as const),
    http: fc.option(
      fc.record({
        method: fc.constantFrom('POST', 'GET', 'post'),
        path: fc.constantFrom('/', '/hook?x=1'),
        headers: fc.dictionary(header, fc.string({ maxLength: 12 }), { maxKeys: 5 }),
      }),
      { nil: undefined },
    ),
    attempt: fc.integer({ min: 1, max: 50 }),
    rule: fc.option(fc.integer({ min: 0, max: 9 }), { nil: null }),
    planned: fc.boolean(),
    decided: fc.constantFrom(RESPOND, DENY),
    prng: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
    violations: fc.constantFrom(NONE, [
      { code: 'id-mismatch', message: 'm', path: '$.id' },
    ] as FrameViolation[]),
  })
  .map((d): RecordedDelivery => d);
const entries = fc.constant<readonly RecordEntry[]>([
  {
    type: 'outbound',
    delivery: 0,
    transport: 'stdio',
    connectionId: '1',
    action: { type: 'end', afterMs: 0 },
  },
]);

/** A first delivery answered by default: only its bytes matter to the test. */
function plainDelivery(bytes: Uint8Array): RecordedDelivery {
  return {
    delivery: 1,
    transport: 'stdio',
    connectionId: '1',
    monotonic: 0,
    wall: 0,
    bytes,
    fault: undefined,
    http: undefined,
    attempt: 1,
    rule: null,
    planned: false,
    decided: RESPOND,
    prng: 0,
    violations: NONE,
  };
}

/** A delivery's fields as plain data, bytes included, for comparison. */
function plain(row: Recorded): unknown {
  if (isEntryList(row)) return row;
  return {
    ...row,
    bytes: [...row.bytes],
    http: row.http && { ...row.http, headers: Object.entries(row.http.headers) },
  };
}

describe('DeliveryLog', () => {
  it('gives back every row as it was added: fields, exact bytes, header order, shared values', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ weight: 5, arbitrary: delivery }, { weight: 1, arbitrary: entries }), {
          maxLength: 40,
        }),
        (rows) => {
          const log = new DeliveryLog();
          for (const row of rows) log.add(row);
          expect(log.length).toBe(rows.length);
          rows.forEach((row, i) => {
            const back = log.at(i);
            expect(plain(back)).toEqual(plain(row));
            // Shared values come back as the same objects (a behaviour is the scenario's own).
            if (!isEntryList(back) && !isEntryList(row)) {
              expect(back.decided).toBe(row.decided);
              expect(back.violations).toBe(row.violations);
            } else expect(back).toBe(row);
          });
        },
      ),
    );
  });

  it('copies the bytes: a frame changed or reused after it was added stays as it was', () => {
    const log = new DeliveryLog();
    const chunk = Buffer.from('{"a":1}');
    log.add(plainDelivery(chunk));
    chunk.fill(0x20);
    expect(Buffer.from((log.at(0) as RecordedDelivery).bytes).toString()).toBe('{"a":1}');
  });

  it('keeps frames larger than a slab and many frames across slabs', () => {
    const log = new DeliveryLog();
    const big = new Uint8Array(3 << 20).fill(0x61);
    const small = new Uint8Array(700_000).fill(0x62);
    for (const bytes of [small, big, small, small]) {
      log.add(plainDelivery(bytes));
    }
    expect([0, 1, 2, 3].map((i) => (log.at(i) as RecordedDelivery).bytes.length)).toEqual([
      700_000,
      3 << 20,
      700_000,
      700_000,
    ]);
    expect((log.at(1) as RecordedDelivery).bytes.every((b) => b === 0x61)).toBe(true);
    expect((log.at(3) as RecordedDelivery).bytes.every((b) => b === 0x62)).toBe(true);
  });
});
