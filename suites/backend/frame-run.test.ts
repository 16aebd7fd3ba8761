// A frame run over a real stdio process: lines that are not JSON-RPC messages are read past and
// kept as noise of the step they came in, never as a reply, on one process throughout; a process
// that starts slowly gets its warm-up, and every deadline counts from the request's write.
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../protocol/clock.js';
import { scaledMs } from '../common/scale.js';
import { step } from './probe.js';
import { WIRE_PROBES } from './probes-wire.js';
import { runFrames } from './frame-run.js';
import type { BackendTarget } from './target.js';
import { judgeProbe } from './verdict.js';

// Answers each request at once and logs it on stdout late: only when the next message arrives,
// so the log of the request before a notification comes while the notification is watched.
const LATE_LOGGER = `
const rl = require('node:readline').createInterface({ input: process.stdin });
process.stdout.write('backend ready\\n');
let pending = '';
rl.on('line', (line) => {
  process.stdout.write(pending);
  pending = '';
  const m = JSON.parse(line);
  if (!('id' in m)) return;
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: 'draft', effects: [] } }) + '\\n');
  pending = 'log: handled ' + m.id + '\\n';
});`;

const target: BackendTarget = {
  endpoint: {
    kind: 'stdio',
    lifecycle: 'persistent',
    command: process.execPath,
    args: ['-e', LATE_LOGGER],
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '' },
  },
  deadlineMs: 5_000,
};

const notification = WIRE_PROBES.find((p) => p.name === 'notification-gets-no-reply');

describe('a backend frame run over stdio', () => {
  it('reads past a banner and late log lines: each request gets its reply, a notification none, on one process', async () => {
    if (!notification) throw new Error('the notification probe is missing');
    const run = await runFrames(
      notification.steps.map((s) => s.frame),
      { target, clock: systemClock, silenceWindowMs: 300, killGraceMs: 500, warmUpMs: 5_000 },
    );
    const [first, observe, last] = run.observations;
    if (first?.kind !== 'request' || observe?.kind !== 'notification' || last?.kind !== 'request') {
      throw new Error('unexpected observations');
    }
    expect(first.reply.ok && last.reply.ok).toBe(true);
    expect(new Set([...first.pids, ...last.pids]).size).toBe(1);
    const text = (lines: Uint8Array[]) => lines.map((l) => Buffer.from(l).toString());
    expect(text(first.noise)).toEqual(['backend ready']);
    // The log of the first request came after the notification: noise, not a reply to it.
    expect(text(observe.noise)).toEqual([expect.stringMatching(/^log: handled evt_/)]);
    expect(observe.inFrames).toEqual([]);
    expect(run.transcript.filter((e) => e.noise).length).toBeGreaterThanOrEqual(2);
    expect(judgeProbe(notification, notification.steps, run.observations, 'stdio-persistent')).toMatchObject({
      status: 'pass',
    });
    // The same lines fail a case that judges stdout, once per step that had them.
    const stdout = { ...notification, requirement: 'AHP-STDIO-001', stdoutDiscipline: true as const };
    const stdoutSteps = [step.subject(notification.steps[0]!.frame), ...notification.steps.slice(1)];
    const judged = judgeProbe(stdout, stdoutSteps, run.observations, 'stdio-persistent');
    expect(judged.status).toBe('fail');
    expect(judged.faults.map((f) => `${f.requirement} ${f.rule.key}#${f.way ?? ''}`)).toContain(
      'AHP-STDIO-001 stdio.stdout#non-protocol-line',
    );
  });
});

/** A persistent backend that reads nothing for `startMs`, then answers every request at once. */
function slowStarter(startMs: number, deadlineMs: number): BackendTarget {
  const script = `setTimeout(() => {
  require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
    const m = JSON.parse(line);
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: 'draft', effects: [] } }) + '\\n');
  });
}, ${startMs});`;
  return {
    ...target,
    endpoint: { ...target.endpoint, args: ['-e', script] } as BackendTarget['endpoint'],
    deadlineMs,
  };
}

const ALLOW = { send: 'intercept', input: 'allow' } as const;

/**
 * The cold-start timings: the start is longer than the deadline (so a deadline counted from the
 * spawn would miss it), the warm-up is far longer than the start, even on a loaded machine.
 */
const COLD = { startMs: 1_500, deadlineMs: 1_000, warmUpMs: scaledMs(8_000, 2) } as const;

describe('a frame run over a persistent stdio process that starts slowly', () => {
  it('waits out its start once (a warm-up), then holds every later request to the deadline from its write', async () => {
    const run = await runFrames([ALLOW, ALLOW, ALLOW], {
      target: slowStarter(COLD.startMs, COLD.deadlineMs),
      clock: systemClock,
      silenceWindowMs: 300,
      killGraceMs: 500,
      warmUpMs: COLD.warmUpMs,
    });
    expect(run.notReady).toBeUndefined();
    const replies = run.observations.map((o) => (o.kind === 'request' ? o.reply.ok : undefined));
    expect(replies).toEqual([true, true, true]);
    // The first reply waited for the start; the later ones were timed from their own writes.
    const [first, ...rest] = run.observations.map((o) => (o.kind === 'request' ? o.elapsedMs : NaN));
    expect(first).toBeGreaterThanOrEqual(COLD.startMs - 200);
    for (const ms of rest) expect(ms).toBeLessThan(COLD.deadlineMs);
    const notes = run.transcript.filter((e) => e.dir === 'note').map((e) => `${e.step} ${e.text}`);
    expect(notes).toEqual([
      expect.stringMatching(/^1 warm-up: this request is the first to a fresh backend process/),
    ]);
  });

  it('leaves the run unjudged, with the reason, when the process never answers within its warm-up bound', async () => {
    const run = await runFrames([ALLOW, ALLOW], {
      target: slowStarter(60_000, 200),
      clock: systemClock,
      silenceWindowMs: 300,
      killGraceMs: 500,
      warmUpMs: 300,
    });
    expect(run.observations).toHaveLength(1);
    expect(run.notReady).toMatch(
      /did not answer its first request .* within the warm-up bound of 500 ms \(--deadline-ms 200 plus 300 ms for the process to start\), so it never became ready/,
    );
  });
});

/** A persistent backend that answers every request under an id of its own. */
const OTHER_ID = `require('node:readline').createInterface({ input: process.stdin }).on('line', () => {
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: 'not-the-request-id', result: { protocolVersion: 'draft', effects: [] } }) + '\\n');
});`;

describe('a frame run over a persistent stdio backend that answers under another id', () => {
  it('takes that frame as the reply, for the judge to fault its id, instead of waiting out the deadline', async () => {
    const run = await runFrames([ALLOW], {
      target: {
        ...target,
        endpoint: { ...target.endpoint, args: ['-e', OTHER_ID] } as BackendTarget['endpoint'],
      },
      clock: systemClock,
      silenceWindowMs: 300,
      killGraceMs: 500,
      warmUpMs: 5_000,
    });
    const [only] = run.observations;
    if (only?.kind !== 'request') throw new Error('unexpected observations');
    expect(only.reply).toMatchObject({ ok: true, message: { id: 'not-the-request-id' } });
  });
});
