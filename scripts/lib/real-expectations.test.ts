import { describe, expect, it } from 'vitest';
import { replyText, type Chunk, type HostileStream } from './hostile-model.js';
import { httpAllowed, isJsonType, judgedLate, stdioAllowed } from './real-expectations.js';

const ID = 'evt_real_1';
const bands = { inTimeMs: 500, lateMs: 1150 };
const bytesOf = (text: string) => new TextEncoder().encode(text);
const at = (bytes: Uint8Array, hop: number): Chunk[] => [{ bytes, hop }];
const okLine = `${replyText({ shape: 'no-effect' }, ID)}\n`;
const http = (shape: Partial<NonNullable<HostileStream['http']>>): HostileStream => ({
  category: 't',
  policy: 'fail-open',
  timeoutMs: 1000,
  segments: [],
  corruptions: [],
  timing: { firstDelayMs: 0, splits: [] },
  end: 'hang',
  http: { status: 200, contentType: 'application/json', contentLength: false, end: 'end', ...shape },
});

describe('real-process expectations', () => {
  it('recognises JSON media types only', () => {
    for (const t of [
      'application/json',
      'APPLICATION/JSON',
      'application/json; charset=utf-8',
      'application/problem+json',
    ])
      expect(isJsonType(t), t).toBe(true);
    for (const t of ['text/plain', 'application/jsonx', 'text/html', null])
      expect(isJsonType(t), String(t)).toBe(false);
  });

  it('stdio: the first line decides in time, the deadline past the late band, either in between', () => {
    const bytes = bytesOf(okLine);
    expect(stdioAllowed(bytes, at(bytes, 0), ID, 'stay', 4096, bands, false)).toEqual([
      { kind: 'no-effect' },
    ]);
    expect(stdioAllowed(bytes, at(bytes, 1200), ID, 'stay', 4096, bands, false)).toEqual([
      { kind: 'failure', failureClass: 'deadline-exceeded' },
    ]);
    expect(stdioAllowed(bytes, at(bytes, 800), ID, 'stay', 4096, bands, false)).toHaveLength(2);
    expect(stdioAllowed(bytes, at(bytes, 0), ID, 'stay', 4096, bands, true)).toHaveLength(2);
  });

  it('stdio: no line is a deadline while the child stays, a framing fault or process failure when it exits', () => {
    const partial = bytesOf('{"jsonrpc"');
    expect(stdioAllowed(partial, at(partial, 0), ID, 'stay', 4096, bands, false)).toEqual([
      { kind: 'failure', failureClass: 'deadline-exceeded' },
    ]);
    expect(stdioAllowed(partial, at(partial, 0), ID, 'exit', 4096, bands, false)).toEqual([
      { kind: 'failure', failureClass: 'malformed' },
    ]);
    expect(stdioAllowed(new Uint8Array(0), [], ID, 'exit', 4096, bands, false)).toEqual([
      { kind: 'failure', failureClass: 'process' },
    ]);
  });

  it('stdio: a frame answering no request is read past; the next line answers, or the exit does', () => {
    const stray = `${JSON.stringify({ jsonrpc: '2.0', result: { protocolVersion: 'draft', effects: [] } })}\n`;
    const bytes = bytesOf(stray + okLine);
    expect(stdioAllowed(bytes, at(bytes, 0), ID, 'stay', 4096, bands, false)).toEqual([
      { kind: 'no-effect' },
    ]);
    const only = bytesOf(stray);
    expect(stdioAllowed(only, at(only, 0), ID, 'stay', 4096, bands, false)).toEqual([
      { kind: 'failure', failureClass: 'deadline-exceeded' },
    ]);
    expect(stdioAllowed(only, at(only, 0), ID, 'exit', 4096, bands, false)).toEqual([
      { kind: 'failure', failureClass: 'process' },
    ]);
    // A line that is no frame at all is a framing fault, never read past.
    const notJson = bytesOf(`not json\n${okLine}`);
    expect(stdioAllowed(notJson, at(notJson, 0), ID, 'stay', 4096, bands, false)).toEqual([
      { kind: 'failure', failureClass: 'malformed' },
    ]);
  });

  it('http: status, then media type, then the complete body', () => {
    const body = bytesOf(okLine);
    const chunks = at(body, 0);
    expect(httpAllowed(http({}), body, chunks, ID, 4096, bands, false)).toEqual([{ kind: 'no-effect' }]);
    expect(httpAllowed(http({ status: 401 }), body, chunks, ID, 4096, bands, false)).toEqual([
      { kind: 'failure', failureClass: 'auth' },
    ]);
    expect(httpAllowed(http({ status: 302 }), body, chunks, ID, 4096, bands, false)).toEqual([
      { kind: 'failure', failureClass: 'http-status' },
    ]);
    expect(httpAllowed(http({ contentType: 'text/plain' }), body, chunks, ID, 4096, bands, false)).toEqual([
      { kind: 'failure', failureClass: 'malformed' },
    ]);
    expect(httpAllowed(http({}), body, chunks, ID, 10, bands, false)).toEqual([
      { kind: 'failure', failureClass: 'malformed' },
    ]);
    expect(httpAllowed(http({ end: 'hang' }), body, chunks, ID, 4096, bands, false)).toEqual([
      { kind: 'failure', failureClass: 'deadline-exceeded' },
    ]);
    expect(
      httpAllowed(http({ end: 'hang', contentLength: true }), body, chunks, ID, 4096, bands, false),
    ).toEqual([{ kind: 'no-effect' }]);
    expect(httpAllowed(http({ end: 'destroy' }), body, chunks, ID, 4096, bands, false)).toEqual([
      { kind: 'failure', failureClass: 'connection' },
    ]);
  });

  it('counts an audit record settled at or past its deadline as judged late', () => {
    expect(judgedLate({ startedAt: 10, settledAt: 1009 }, 1000)).toBe(false);
    expect(judgedLate({ startedAt: 10, settledAt: 1010 }, 1000)).toBe(true);
    expect(judgedLate(undefined, 1000)).toBe(true);
  });
});
