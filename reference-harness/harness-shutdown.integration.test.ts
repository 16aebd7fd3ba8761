import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JsonValue } from '../protocol/json.js';
import { createHarness, type Harness } from './index.js';
import { handleCounts } from './test-backends/helpers.js';
import {
  interceptor,
  MARGIN,
  registrationDoc as registration,
  scriptedCall as call,
  scriptedStdio as stdio,
  startScriptedHttpBackend,
  type ScriptedHttpBackend,
} from './test-backends/harness-it-support.js';
import { processAlive } from '../protocol/process-alive.js';

const open: Harness[] = [];
function harness(reg: JsonValue): Harness {
  const h = createHarness({ registration: reg, env: {}, killGraceMs: MARGIN.killGraceMs });
  open.push(h);
  return h;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

let http: ScriptedHttpBackend;
let baseUrl = '';
const requests = () => http.requests;
beforeAll(async () => {
  http = await startScriptedHttpBackend();
  baseUrl = http.url;
});
afterAll(() => http.close());

// ---------------------------------------------------------------- shutdown

describe('close()', () => {
  it('reaps a SIGTERM-ignoring backend by SIGKILL after the grace, and leaves no handle open', async () => {
    const baseline = await handleCounts();
    const h = createHarness({
      registration: registration([
        {
          id: 'com.example.stubborn',
          transport: stdio('persistent', 'ignore-sigterm'),
          subs: [interceptor('fail-open', MARGIN.answerMs)],
        },
      ]),
      env: {},
      killGraceMs: MARGIN.killGraceMs,
    });
    expect((await h.invoke(call({ mode: 'none' }))).decision).toBe('continue');
    const pids = h.livePids();
    expect(pids).toHaveLength(1);
    const started = performance.now();
    await h.close();
    expect(performance.now() - started).toBeGreaterThanOrEqual(MARGIN.killGraceMs - 50);
    expect(pids.every((pid) => !processAlive(pid))).toBe(true);
    expect(h.livePids()).toEqual([]);
    await expect(h.invoke(call({ mode: 'none' }))).rejects.toMatchObject({ code: 'harness-closed' });
    expect(await handleCounts()).toEqual(baseline);
  });

  it('ends in-flight calls at once as closed, over stdio and HTTP', async () => {
    const h = createHarness({
      registration: registration([
        {
          id: 'com.example.http',
          transport: { type: 'http', url: baseUrl },
          subs: [interceptor('fail-open', MARGIN.answerMs)],
        },
        {
          id: 'com.example.stdio',
          transport: stdio('per_event'),
          subs: [interceptor('fail-open', MARGIN.answerMs)],
        },
      ]),
      env: {},
      killGraceMs: MARGIN.killGraceMs,
    });
    const seen = requests().length;
    const pending = h.invoke(call({ mode: 'hang' }));
    await vi.waitFor(() => expect(requests().length).toBeGreaterThan(seen), { timeout: MARGIN.answerMs });
    const started = performance.now();
    await h.close();
    const r = await pending;
    expect(performance.now() - started).toBeLessThan(MARGIN.promptMs);
    expect(r).toMatchObject({ decision: 'deny', interrupted: true, ending: 'closed' });
    expect(r.audit.map((a) => a.outcome)).toEqual(['interrupted', 'skipped']);
    expect(h.livePids()).toEqual([]);
  });

  it('cancellation ends a pending per_event request at once and reaps the child', async () => {
    const h = harness(
      registration([
        {
          id: 'com.example.stdio',
          transport: stdio('per_event'),
          subs: [interceptor('fail-open', MARGIN.answerMs)],
        },
      ]),
    );
    const caller = new AbortController();
    const pending = h.invoke(call({ mode: 'hang' }), { signal: caller.signal });
    await vi.waitFor(() => expect(h.livePids()).toHaveLength(1), { timeout: MARGIN.answerMs });
    const pids = h.livePids();
    caller.abort();
    const r = await pending;
    expect(r).toMatchObject({ decision: 'deny', interrupted: true, ending: 'cancelled' });
    await h.close();
    expect(pids.every((pid) => !processAlive(pid))).toBe(true);
  });
});
