/**
 * Stdio mocks as real processes (the command line `stdioCommand` makes, empty environment): every
 * exchange-level built-in over one persistent process, the process-level ones one process each,
 * and `sequence` counting identically over per_event stdio, persistent stdio and HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interceptRequest, observeNotification } from './engine-test-frames.js';
import {
  BUILTIN_SCENARIOS,
  startHttpMock,
  startMockControl,
  type MockControl,
  type Scenario,
} from './index.js';
import { plannedExchange, shortened } from './shells/test-support/planned.js';
import { rawRequest } from './shells/test-support/raw-http.js';
import {
  MOCK_PROCESS_MARGINS,
  SPAWN_TEST_TIMEOUT_MS,
  spawnMock,
  type MockProcess,
} from './shells/test-support/stdio-process.js';

const TIMER_SLACK_MS = 2;
const line = (eventId: string) => `${JSON.stringify(interceptRequest({ eventId }))}\n`;
const reply = (id: string) =>
  `{"jsonrpc":"2.0","id":"${id}","result":{"protocolVersion":"draft","effects":[]}}\n`;
const unavailable = (id: string) =>
  `{"jsonrpc":"2.0","id":"${id}","error":{"code":-32003,"message":"Backend unavailable"}}\n`;

const processLevel = new Set(['exit', 'signal', 'reset']);
const stdioBuiltins = Object.entries(BUILTIN_SCENARIOS).filter(([, b]) => b.transports.includes('stdio'));
const exchangeLevel = stdioBuiltins.filter(
  ([, b]) => !b.scenario.process && !b.scenario.rules.some((r) => processLevel.has(r.behaviour.kind)),
);

describe(
  'stdio persistent: every exchange-level built-in reaches stdout as planned',
  { timeout: SPAWN_TEST_TIMEOUT_MS },
  () => {
    let control: MockControl;
    let proc: MockProcess;
    beforeAll(async () => {
      control = await startMockControl({ scenario: { rules: [] } });
      proc = spawnMock(control.stdioCommand());
      proc.write(line('warm-up'));
      await proc.until(
        () => proc.stdout().toString() === reply('warm-up'),
        'the first reply',
        MOCK_PROCESS_MARGINS.spawnMs,
      );
    }, SPAWN_TEST_TIMEOUT_MS);
    afterAll(async () => {
      await proc.dispose();
      await control.close();
    });

    for (const [name, builtin] of exchangeLevel) {
      it(name, async () => {
        control.setScenario(shortened(builtin.scenario));
        control.core.reset();
        const base = proc.stdout().length;
        const sentAt = performance.now();
        proc.write(
          name === 'answer-notification' ? `${JSON.stringify(observeNotification('n1'))}\n` : line(name),
        );
        const record = await control.waitForDelivery(() => true, { timeoutMs: MOCK_PROCESS_MARGINS.replyMs });
        const plan = plannedExchange(control.recordings(), record.delivery);
        expect(plan.ending).toBe(plan.body.length === 0 && name !== 'no-reply' ? 'hang' : 'end');
        if (plan.body.length === 0) {
          // Nothing is due; watch a quiet margin for bytes that should not come.
          await new Promise((r) => setTimeout(r, MOCK_PROCESS_MARGINS.quietMs));
        } else {
          await proc.until(() => proc.stdout().length >= base + plan.body.length, `the ${name} reply`);
        }
        expect(proc.stdout().subarray(base).toString('base64')).toBe(plan.body.toString('base64'));
        const firstChunk = proc.stdoutChunks().find((c) => c.offset >= base);
        if (plan.firstWriteMs !== undefined && firstChunk) {
          expect(firstChunk.at - sentAt).toBeGreaterThanOrEqual(plan.firstWriteMs - TIMER_SLACK_MS);
        }
        expect(control.recordings({ type: 'violation' })).toEqual([]);
        expect(record.connectionId).toBe(String(proc.pid));
      });
    }
  },
);

/** A control server and one process for a scenario; the caller disposes both. */
async function oneProcess(scenario: Scenario) {
  const control = await startMockControl({ scenario });
  const proc = spawnMock(control.stdioCommand({ lifecycle: 'per_event' }));
  return {
    control,
    proc,
    async dispose() {
      await proc.dispose();
      await control.close();
    },
  };
}

const builtin = (name: string) => BUILTIN_SCENARIOS[name]!.scenario;

describe.concurrent(
  'stdio process-level behaviours, one process each',
  { timeout: SPAWN_TEST_TIMEOUT_MS },
  () => {
    it('lists the EOF of a process that read its one message and EOF at once, before its exit', async () => {
      const m = await oneProcess({ rules: [{ behaviour: { kind: 'silent' } }] });
      m.proc.endStdin(line('a'));
      expect(await m.proc.exited).toEqual({ code: 0, signal: null });
      expect(m.control.processes()).toMatchObject([{ pid: m.proc.pid, stdinEnd: { messages: 1 } }]);
      await m.dispose();
    });

    it('stdio-banner: the banner line comes before the first reply', async () => {
      const m = await oneProcess(builtin('stdio-banner'));
      m.proc.endStdin(line('a'));
      expect(await m.proc.exited).toEqual({ code: 0, signal: null });
      expect(m.proc.stdout().toString()).toBe(`mock-backend ready\n${reply('a')}`);
      await m.dispose();
    });

    it('reports when it carried out each action, with its next step and its exit report', async () => {
      const m = await oneProcess({
        rules: [{ behaviour: { kind: 'delay', ms: 30, then: { kind: 'respond' } } }],
        process: { banner: 'ready' },
      });
      const writes = () =>
        m.control
          .recordings({ type: 'outbound' })
          .flatMap((e) =>
            e.type === 'outbound' && e.action.type === 'write'
              ? [[e.delivery, e.performedAt?.monotonic]]
              : [],
          );
      m.proc.write(line('a'));
      await m.proc.until(() => m.proc.stdout().toString().endsWith(reply('a')), 'the reply to a');
      m.proc.write(line('b'));
      await m.proc.until(() => m.proc.stdout().toString().endsWith(reply('b')), 'the reply to b');
      // The banner's and a's came with b's step; b's comes with the exit report.
      expect(writes().map(([, performed]) => performed !== undefined)).toEqual([true, true, false]);
      m.proc.endStdin();
      expect(await m.proc.exited).toEqual({ code: 0, signal: null });
      // On the process's clock, like the frames' arrival: each reply no earlier than 30 ms after it.
      const arrival = new Map(m.control.deliveries().map((d) => [d.delivery, d.at.monotonic]));
      const seen = writes();
      expect(seen.map(([delivery]) => delivery)).toEqual([0, 1, 2]);
      for (const [delivery, performed] of seen.slice(1)) {
        expect((performed as number) - (arrival.get(delivery as number) as number)).toBeGreaterThanOrEqual(
          30,
        );
      }
      // The banner goes out once the start round trip is over, before any reply.
      expect(seen[0]?.[1]).toBeLessThanOrEqual(seen[1]?.[1] as number);
      await m.dispose();
    });

    it('exits with a code before or after replying, and the control server lists each exit', async () => {
      const runs = await Promise.all(
        [
          ['stdio-exit-before-reply', 3, ''],
          ['stdio-exit-0-no-reply', 0, ''],
          ['stdio-exit-after-reply', 1, reply('a')],
        ].map(async ([name, code, out]) => {
          const m = await oneProcess(builtin(name as string));
          m.proc.write(line('a'));
          const end = await m.proc.exited;
          const listed = m.control.processes();
          await m.dispose();
          return { end, out: m.proc.stdout().toString(), listed, expected: { code, out, pid: m.proc.pid } };
        }),
      );
      for (const { end, out, listed, expected } of runs) {
        expect(end).toEqual({ code: expected.code, signal: null });
        expect(out).toBe(expected.out);
        expect(listed).toMatchObject([{ pid: expected.pid, exit: { code: expected.code, signal: null } }]);
      }
    });

    it('stdio-die-by-signal: dies by SIGKILL after saying so to the control server', async () => {
      const m = await oneProcess(builtin('stdio-die-by-signal'));
      m.proc.write(line('a'));
      expect(await m.proc.exited).toEqual({ code: null, signal: 'SIGKILL' });
      expect(m.control.processes()).toMatchObject([
        { pid: m.proc.pid, exit: { code: null, signal: 'SIGKILL' }, alive: false },
      ]);
      await m.dispose();
    });

    it('stdio-close-stdout: stdout reaches EOF while the process lives on until stdin ends', async () => {
      const m = await oneProcess(builtin('stdio-close-stdout'));
      m.proc.write(line('a'));
      await m.proc.until(() => m.proc.stdoutEnded(), 'stdout EOF');
      expect(m.proc.stdout().length).toBe(0);
      expect(m.control.processes()).toMatchObject([{ pid: m.proc.pid, alive: true }]);
      expect(m.control.processes()[0]?.stdinEnd).toBeUndefined();
      m.proc.endStdin();
      expect(await m.proc.exited).toEqual({ code: 0, signal: null });
      // The EOF is reported before the exit, with the messages read by then, on the process's clock.
      const [listed] = m.control.processes();
      const [arrival] = m.control.deliveries();
      expect(listed?.stdinEnd?.messages).toBe(1);
      expect(listed?.stdinEnd?.at.monotonic).toBeGreaterThanOrEqual(arrival?.at.monotonic ?? Infinity);
      await m.dispose();
    });

    it('stdio-ignore-sigterm: survives SIGTERM (saying so on stderr); only SIGKILL ends it', async () => {
      const m = await oneProcess(builtin('stdio-ignore-sigterm'));
      m.proc.write(line('a'));
      // Frames are stepped only after the start round trip, so the SIGTERM trap is in place now.
      await m.control.waitForDelivery(() => true, { timeoutMs: MOCK_PROCESS_MARGINS.spawnMs });
      m.proc.child.kill('SIGTERM');
      await m.proc.until(() => m.proc.stderr().includes('ignoring SIGTERM'), 'the SIGTERM note');
      expect(m.control.processes()).toMatchObject([{ pid: m.proc.pid, alive: true }]);
      m.proc.child.kill('SIGKILL');
      expect(await m.proc.exited).toEqual({ code: null, signal: 'SIGKILL' });
      await m.dispose();
    });

    it('stdio-refuse-to-start: the message on stderr, exit 1, nothing on stdout, nothing read', async () => {
      const m = await oneProcess(builtin('stdio-refuse-to-start'));
      m.proc.write(line('a'));
      expect(await m.proc.exited).toEqual({ code: 1, signal: null });
      expect(m.proc.stderr()).toBe('mock-backend: refusing to start\n');
      expect(m.proc.stdout().length).toBe(0);
      expect(m.control.deliveries()).toEqual([]);
      await m.dispose();
    });

    it('without a reachable control server: one stderr sentence and exit 2', async () => {
      const control = await startMockControl({ scenario: { rules: [] } });
      const command = control.stdioCommand();
      await control.close();
      const proc = spawnMock(command);
      expect(await proc.exited).toEqual({ code: 2, signal: null });
      expect(proc.stderr()).toMatch(
        /^mock-backend: cannot start: control server http:\/\/127\.0\.0\.1:\d+\/ is unreachable \(ECONNREFUSED\)\n$/,
      );
    });
  },
);

describe(
  'sequence counts attempts identically over per_event stdio, persistent stdio and HTTP',
  { timeout: SPAWN_TEST_TIMEOUT_MS },
  () => {
    const failTwice = builtin('fail-first-2-then-respond');
    const expected = [unavailable('e'), unavailable('e'), reply('e')];

    it('per_event: one process per delivery, attempts shared through the control server', async () => {
      const control = await startMockControl({ scenario: failTwice });
      const outputs: string[] = [];
      const pids: number[] = [];
      for (let i = 0; i < 3; i++) {
        const proc = spawnMock(control.stdioCommand({ lifecycle: 'per_event' }));
        proc.endStdin(line('e'));
        expect(await proc.exited).toEqual({ code: 0, signal: null });
        outputs.push(proc.stdout().toString());
        pids.push(proc.pid);
      }
      expect(outputs).toEqual(expected);
      expect(control.deliveries().map((r) => [r.attempt, r.connectionId])).toEqual(
        pids.map((p, i) => [i + 1, String(p)]),
      );
      expect(control.processes().map((p) => [p.pid, p.exit?.code])).toEqual(pids.map((p) => [p, 0]));
      await control.close();
    });

    it('persistent stdio and HTTP give the same replies in the same order', async () => {
      const control = await startMockControl({ scenario: failTwice });
      const proc = spawnMock(control.stdioCommand({ lifecycle: 'persistent' }));
      proc.write(line('e') + line('e') + line('e'));
      await proc.until(
        () => proc.stdout().toString() === expected.join(''),
        'three replies',
        MOCK_PROCESS_MARGINS.spawnMs,
      );
      await proc.dispose();
      await control.close();

      const http = await startHttpMock({ scenario: failTwice, control: false });
      const bodies: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await rawRequest(http.url, { body: line('e').trimEnd() });
        bodies.push(`${res.body.toString()}\n`);
      }
      await http.close();
      expect(bodies).toEqual(expected);
    });
  },
);
