import { describe, expect, it } from 'vitest';
import { createMock } from '../../../mock-backend/index.js';
import {
  arrivalGapMs,
  bytesText,
  decodeFrames,
  recordsForCall,
  writtenText,
  type WireFrame,
} from './wire-records.js';

const enc = new TextEncoder();
const at = { monotonic: 1, wall: 1 };

function intercept(eventId: string, callId: string, id: string = eventId): Uint8Array {
  return enc.encode(
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'hooks/intercept',
      params: {
        protocolVersion: 'draft',
        event: {
          id: eventId,
          type: 'tool.before',
          session: { id: 's' },
          call: { id: callId },
          tool: { name: 'Bash', input: {} },
        },
        capabilities: { effects: ['deny'] },
      },
    }),
  );
}

describe('recordsForCall', () => {
  it('decodes identities, advertisement, credentials and the mock answer of each frame', () => {
    const mock = createMock({ scenario: { rules: [{ behaviour: { kind: 'deny', reason: 'No.' } }] } });
    mock.step({
      bytes: intercept('evt-1', 'call-1'),
      transport: 'http',
      connectionId: 'c1',
      at,
      http: { method: 'POST', path: '/', headers: { authorization: 'Bearer x' } },
    });
    const [frame] = decodeFrames(mock.recordings());
    expect(frame).toMatchObject({
      method: 'hooks/intercept',
      hasId: true,
      jsonrpcId: 'evt-1',
      eventId: 'evt-1',
      callId: 'call-1',
      sessionId: 's',
      advertised: ['deny'],
      authorization: 'Bearer x',
      behaviour: { kind: 'deny' },
    });
    expect(writtenText([frame as never]).join('')).toContain('"reason":"No."');
  });

  it('reads the call id where revision "0.1" kept it, tool.callId', () => {
    const mock = createMock({ scenario: { rules: [] } });
    const event = { id: 'evt-1', type: 'tool.before', tool: { name: 'Bash', callId: 'call-1', input: {} } };
    const bytes = enc.encode(
      JSON.stringify({ jsonrpc: '2.0', id: 'evt-1', method: 'hooks/intercept', params: { event } }),
    );
    mock.step({ bytes, transport: 'stdio', connectionId: '7', at });
    const [frame] = decodeFrames(mock.recordings());
    expect(frame?.toolCallId).toBe('call-1');
    expect(frame).not.toHaveProperty('callId');
  });

  it('keeps the frames the filter picks, observe notifications included', () => {
    const mock = createMock({ scenario: { rules: [] } });
    const observe = enc.encode(
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'hooks/observe',
        params: { protocolVersion: 'draft', event: { id: 'evt-1', call: { id: 'call-1' } } },
      }),
    );
    for (const bytes of [
      intercept('evt-1', 'call-1'),
      intercept('evt-2', 'call-2'),
      observe,
      intercept('evt-1', 'call-1', 'x'),
    ]) {
      mock.step({ bytes, transport: 'stdio', connectionId: '7', at });
    }
    const r = recordsForCall(mock.recordings(), (f) => f.callId === 'call-1');
    expect(r.frames.map((f) => f.delivery)).toEqual([1, 3, 4]);
    expect(r.requests.map((f) => f.jsonrpcId)).toEqual(['evt-1', 'x']);
    expect(r.notifications).toHaveLength(1);
    expect(r.notifications[0]?.hasId).toBe(false);
  });

  it('shows invalid UTF-8 as text without failing', () => {
    expect(bytesText({ base64: Buffer.from([0x7b, 0xe2, 0x82]).toString('base64') })).toHaveLength(3);
  });
});

describe('arrivalGapMs', () => {
  const frame = (connectionId: string, atMs: number, atWallMs: number) =>
    ({ transport: 'stdio', connectionId, atMs, atWallMs }) as WireFrame;

  it('counts on the monotonic clock within one process', () => {
    expect(arrivalGapMs(frame('101', 50, 1_000_000), frame('101', 450, 1_000_399))).toBe(400);
  });

  it('counts on the wall clock across processes, each of which counts from its own start', () => {
    // Two per_event processes, each monotonic clock near its own boot: only the wall clock compares.
    expect(arrivalGapMs(frame('101', 180, 1_000_000), frame('102', 170, 1_000_900))).toBe(900);
  });
});
