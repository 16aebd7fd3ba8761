// Small, valid sample messages for this folder's unit tests; each test breaks one thing.
import type { JsonObject } from './json.js';

/** A valid draft `tool.before` event. */
export function sampleToolBefore(): JsonObject {
  return {
    id: 'evt_1',
    source: 'urn:uuid:00000000-0000-4000-8000-000000000001',
    type: 'tool.before',
    time: '2026-01-02T03:04:05Z',
    session: { id: 'sess_1', cwd: '/work' },
    call: { id: 'call_1' },
    tool: { name: 'Bash', kind: 'shell', origin: 'native', input: { command: 'ls' } },
    path: 'native',
  };
}

/** A valid draft `tool.after` event for a call that ran. */
export function sampleToolAfter(): JsonObject {
  return {
    id: 'evt_2',
    source: 'https://harness.test/run/1',
    type: 'tool.after',
    time: '2026-01-02T03:04:06.250+02:00',
    call: { id: 'call_1' },
    tool: { name: 'Bash', origin: 'native', input: { command: 'ls' } },
    path: 'native',
    outcome: 'ok',
    execution: { status: 'executed' },
    items: [],
  };
}

/** A valid intercept request for `sampleToolBefore()` advertising only deny. */
export function sampleInterceptRequest(): JsonObject {
  return {
    jsonrpc: '2.0',
    id: 'evt_1',
    method: 'hooks/intercept',
    params: { protocolVersion: 'draft', event: sampleToolBefore(), capabilities: { effects: ['deny'] } },
  };
}

/** One canonical text message. */
export function sampleMessage(role = 'user', text = 'hello'): JsonObject {
  return { id: `m_${role}`, role, parts: [sampleTextPart(text)] };
}

/** One body-selected text part. */
export function sampleTextPart(text = 'hello'): JsonObject {
  return { id: 'p1', kind: 'text', mediaType: 'text/plain', selection: 'body', text };
}
