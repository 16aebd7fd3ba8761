/**
 * The mock never crashes on any bytes a harness sends: arbitrary bytes on a persistent stdio
 * process's stdin, as HTTP bodies, and as raw non-HTTP bytes on a socket. After each batch the
 * same process / server still answers a well-formed request, and the garbage is on record.
 */
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interceptRequest } from './engine-test-frames.js';
import { decodeBytes, startHttpMock, startMockControl, type HttpMock, type MockControl } from './index.js';
import { rawRequest } from './shells/test-support/raw-http.js';
import {
  MOCK_PROCESS_MARGINS,
  SPAWN_TEST_TIMEOUT_MS,
  spawnMock,
  type MockProcess,
} from './shells/test-support/stdio-process.js';

const RUNS = 25;
const probe = (id: string) => JSON.stringify(interceptRequest({ eventId: id }));
const probeReply = (id: string) =>
  `{"jsonrpc":"2.0","id":"${id}","result":{"protocolVersion":"draft","effects":[]}}`;

/** Bytes biased towards what breaks parsers: newlines, CR, braces, quotes, invalid UTF-8 lead bytes. */
const nasty = fc.array(
  fc.oneof(
    fc.integer({ min: 0, max: 255 }),
    fc.constantFrom(0x0a, 0x0d, 0x7b, 0x7d, 0x22, 0x5c, 0xc0, 0xe2, 0xf8, 0xff),
  ),
  { maxLength: 200 },
);

describe('the mock survives any bytes', { timeout: SPAWN_TEST_TIMEOUT_MS }, () => {
  let control: MockControl;
  let proc: MockProcess;
  let http: HttpMock;
  let probes = 0;
  beforeAll(async () => {
    control = await startMockControl({ scenario: { rules: [] } });
    http = await startHttpMock({ scenario: { rules: [] }, control: false });
    proc = spawnMock(control.stdioCommand());
  }, SPAWN_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await proc.dispose();
    await Promise.all([control.close(), http.close()]);
  });

  async function stdioStillAnswers(): Promise<void> {
    const id = `probe-${++probes}`;
    // The newline first ends whatever partial line the garbage left behind.
    proc.write(`\n${probe(id)}\n`);
    await proc.until(
      () => proc.stdout().includes(probeReply(id)),
      `the reply to ${id}`,
      MOCK_PROCESS_MARGINS.spawnMs,
    );
  }

  it('stdio: arbitrary bytes on stdin, then a request, on one process', async () => {
    await fc.assert(
      fc.asyncProperty(nasty, async (bytes) => {
        const before = control.deliveries().length;
        proc.write(Uint8Array.from(bytes));
        await stdioStillAnswers();
        // Every line that reached the mock is on record, parseable or not.
        const lines =
          Buffer.concat([Buffer.from(bytes), Buffer.from('\n')])
            .toString('latin1')
            .split('\n').length - 1;
        expect(control.deliveries().length - before).toBe(lines + 1);
      }),
      { numRuns: RUNS },
    );
    expect(await Promise.race([proc.exited, Promise.resolve('running')])).toBe('running');
  });

  it('stdio: a line past the frame cap is recorded as a fault and the process goes on', async () => {
    const before = control.recordings({ type: 'violation' }).length;
    proc.write(Buffer.alloc(5 * 1024 * 1024, 0x61));
    await stdioStillAnswers();
    expect(control.recordings({ type: 'violation' }).length).toBeGreaterThan(before);
  });

  it('HTTP: arbitrary bodies and content types are answered and recorded', async () => {
    await fc.assert(
      fc.asyncProperty(
        nasty,
        fc.constantFrom('application/json', 'text/plain', 'application/json; charset=latin1'),
        async (bytes, type) => {
          const res = await rawRequest(http.url, {
            body: Uint8Array.from(bytes),
            headers: { 'content-type': type },
          });
          expect(res.status).toBeGreaterThanOrEqual(200);
          const last = http.deliveries().at(-1);
          expect(last && Buffer.from(decodeBytes(last.bytes)).equals(Buffer.from(bytes))).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('HTTP: bytes that are not HTTP at all close that connection only', async () => {
    await fc.assert(
      fc.asyncProperty(nasty, async (bytes) => {
        await new Promise<void>((resolve) => {
          const url = new URL(http.url);
          const socket = connect(Number(url.port), url.hostname, () => socket.end(Uint8Array.from(bytes)));
          socket.on('error', () => resolve());
          socket.on('close', () => resolve());
          socket.resume();
        });
        const res = await rawRequest(http.url, { body: probe('after-garbage') });
        expect(res.body.toString()).toBe(probeReply('after-garbage'));
      }),
      { numRuns: RUNS },
    );
  });
});
