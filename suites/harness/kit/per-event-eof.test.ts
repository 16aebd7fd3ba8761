import { describe, expect, it } from 'vitest';
import type { ProcessInfo } from '../../../mock-backend/index.js';
import { awaitEofReadings, eofFinding, readEof, type EofReading } from './per-event-eof.js';
import type { WireFrame } from './wire-records.js';

const BOUNDS = { eofAfterMessageMs: 2000, reportSlackMs: 150 };

/** The intercept request process 7 read at 100 ms of its own clock (wall 10 100). */
const frame = {
  delivery: 1,
  method: 'hooks/intercept',
  connectionId: '7',
  atMs: 100,
  atWallMs: 10_100,
} as WireFrame;

const listed = (p: Partial<ProcessInfo>): ProcessInfo[] => [{ pid: 7, startedAt: 10_000, alive: true, ...p }];
const eofAt = (monotonic: number, messages = 1) => ({
  stdinEnd: { at: { monotonic, wall: 10_000 + monotonic }, messages },
});
const way = (r: EofReading) => (r.verdict === 'broken' ? r.finding.way : r.verdict);

describe('readEof: one message, then EOF, on the process that read it', () => {
  it('passes an EOF soon after the one message', () => {
    expect(readEof(frame, listed(eofAt(101)), BOUNDS, 10_200)).toEqual({ verdict: 'ok' });
    expect(readEof(frame, listed(eofAt(2100)), BOUNDS, 20_000)).toEqual({ verdict: 'ok' });
  });

  it('fails an EOF later than the bound after the message: stdin closed only as the process was ended', () => {
    const r = readEof(frame, listed(eofAt(2101)), BOUNDS, 20_000);
    expect(way(r)).toBe('closed-late');
    expect(r.verdict === 'broken' && r.finding.rule).toBe('stdio.per-event-eof');
    expect(r.verdict === 'broken' && r.finding.requirement).toBe('AHP-STDIO-001');
  });

  it('fails other than exactly one message before EOF', () => {
    expect(way(readEof(frame, listed(eofAt(101, 2)), BOUNDS, 10_200))).toBe('message-count');
  });

  it('waits while EOF may still come, then fails stdin still open', () => {
    expect(readEof(frame, listed({}), BOUNDS, 12_249)).toEqual({ verdict: 'pending' });
    const r = readEof(frame, listed({}), BOUNDS, 12_250);
    expect(way(r)).toBe('never-closed');
    expect(r.verdict === 'broken' && r.finding.message).toContain('2150 ms after that message');
  });

  it('takes no evidence from a process that ended on its own before its EOF was due, or vanished', () => {
    const ended = { exit: { code: 3, signal: null, at: 10_300 } };
    expect(readEof(frame, listed(ended), BOUNDS, 20_000).verdict).toBe('no-evidence');
    expect(readEof(frame, listed({ alive: false }), BOUNDS, 20_000).verdict).toBe('no-evidence');
    expect(readEof(frame, [], BOUNDS, 20_000).verdict).toBe('no-evidence');
  });

  it('fails a process that ran past its due EOF and then ended with stdin still open', () => {
    const ended = { exit: { code: 0, signal: null, at: 15_000 } };
    expect(way(readEof(frame, listed(ended), BOUNDS, 20_000))).toBe('never-closed');
  });
});

describe('awaitEofReadings', () => {
  it('waits for a pending EOF and reads it once listed', async () => {
    const now = Date.now();
    const fresh = { ...frame, atWallMs: now } as WireFrame;
    let processes = listed({});
    setTimeout(() => (processes = listed(eofAt(150))), 30);
    const readings = await awaitEofReadings([fresh], () => processes, BOUNDS, 5);
    expect(readings).toEqual([{ verdict: 'ok' }]);
    expect(eofFinding(readings)).toBeUndefined();
  });

  it("ends at the frame's due time when EOF never comes", async () => {
    const fresh = { ...frame, atWallMs: Date.now() } as WireFrame;
    const bounds = { eofAfterMessageMs: 40, reportSlackMs: 10 };
    const readings = await awaitEofReadings([fresh], () => listed({}), bounds, 5);
    expect(eofFinding(readings)?.way).toBe('never-closed');
  });
});
