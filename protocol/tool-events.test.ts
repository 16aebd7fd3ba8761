import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from './json.js';
import { sampleToolAfter, sampleToolBefore } from './test-samples.js';
import { validateToolAfterEvent, validateToolBeforeEvent } from './tool-events.js';

const paths = (vs: { path: string }[]) => vs.map((v) => v.path);
const withTool = (tool: JsonObject): JsonObject => ({ ...sampleToolBefore(), tool });
const mcp = (connection: JsonValue): JsonObject => ({
  server: { id: 'srv' },
  toolName: 'read',
  provenance: 'runtime',
  connection,
});

describe('validateToolBeforeEvent (AHP-TB-001)', () => {
  it('accepts a valid event and tags every violation with AHP-TB-001', () => {
    expect(validateToolBeforeEvent(sampleToolBefore())).toEqual([]);
    const out = validateToolBeforeEvent({ ...sampleToolBefore(), time: 'yesterday' });
    expect(out).toEqual([{ path: '$.time', message: expect.any(String), requirement: 'AHP-TB-001' }]);
  });

  it('requires call, tool and path, each well-formed', () => {
    const { call: _c, tool: _t, path: _p, ...rest } = sampleToolBefore();
    expect(paths(validateToolBeforeEvent(rest))).toEqual(['$.call', '$.tool', '$.path']);
    expect(paths(validateToolBeforeEvent({ ...sampleToolBefore(), path: '' }))).toEqual(['$.path']);
    expect(paths(validateToolBeforeEvent({ ...sampleToolBefore(), call: { id: '' } }))).toEqual([
      '$.call.id',
    ]);
  });

  it('keeps call and tool closed (the 0.1 tool.callId shape is rejected)', () => {
    expect(paths(validateToolBeforeEvent({ ...sampleToolBefore(), call: { id: 'c', extra: 1 } }))).toEqual([
      '$.call.extra',
    ]);
    expect(
      paths(validateToolBeforeEvent({ ...sampleToolBefore(), call: { id: 'c', synthesized: 'true' } })),
    ).toEqual(['$.call.synthesized']);
    const legacy = withTool({ callId: 'c1', name: 'Bash', origin: 'native', input: {} });
    expect(paths(validateToolBeforeEvent(legacy))).toEqual(['$.tool.callId']);
  });

  it('requires input to be an object, never an encoded string', () => {
    expect(
      paths(validateToolBeforeEvent(withTool({ name: 'Bash', origin: 'native', input: '{"a":1}' }))),
    ).toEqual(['$.tool.input']);
    expect(paths(validateToolBeforeEvent(withTool({ name: 'Bash', origin: 'native' })))).toEqual([
      '$.tool.input',
    ]);
  });

  it('requires origin, and mcp exactly when the origin is mcp', () => {
    expect(paths(validateToolBeforeEvent(withTool({ name: 'x', input: {} })))).toEqual(['$.tool.origin']);
    expect(paths(validateToolBeforeEvent(withTool({ name: 'x', input: {}, origin: 'mcp' })))).toEqual([
      '$.tool.mcp',
    ]);
    const nativeWithMcp = withTool({
      name: 'x',
      input: {},
      origin: 'native',
      mcp: mcp({ transport: 'http', url: 'https://m' }),
    });
    expect(paths(validateToolBeforeEvent(nativeWithMcp))).toEqual(['$.tool.mcp']);
  });

  it('accepts an MCP location or an explicit gap, and rejects neither', () => {
    const ok = (conn: JsonValue) =>
      validateToolBeforeEvent(withTool({ name: 'x', input: {}, origin: 'mcp', mcp: mcp(conn) }));
    expect(ok({ transport: 'http', url: 'https://mcp.test' })).toEqual([]);
    expect(ok({ transport: 'sse', gaps: [{ path: 'url', reason: 'hidden' }] })).toEqual([]);
    expect(ok({ transport: 'stdio', command: 'srv', args: [] })).toEqual([]);
    expect(
      ok({
        transport: '_unix',
        gaps: [
          { path: 'addressForm', reason: 'r' },
          { path: 'address', reason: 'r' },
        ],
      }),
    ).toEqual([]);
    expect(paths(ok({ transport: 'http' }))).toEqual(['$.tool.mcp.connection.url']);
    expect(paths(ok({ transport: 'stdio' }))).toEqual(['$.tool.mcp.connection.command']);
    expect(paths(ok({ transport: 'carrier-pigeon' }))).toEqual(['$.tool.mcp.connection.transport']);
  });

  it('forbids the fields that only exist after execution', () => {
    const event = {
      ...sampleToolBefore(),
      outcome: 'ok',
      execution: { status: 'executed' },
      durationMs: 3,
      fileChanges: [],
    };
    expect(paths(validateToolBeforeEvent(event))).toEqual([
      '$.outcome',
      '$.execution',
      '$.durationMs',
      '$.fileChanges',
    ]);
  });

  it('rejects a different event type', () => {
    expect(paths(validateToolBeforeEvent({ ...sampleToolBefore(), type: 'tool.after' }))).toEqual(['$.type']);
  });
});

describe('validateToolAfterEvent', () => {
  it('accepts an executed call and a denied, skipped one', () => {
    expect(validateToolAfterEvent(sampleToolAfter())).toEqual([]);
    const denied = {
      ...sampleToolAfter(),
      outcome: 'denied',
      execution: { status: 'skipped', reason: 'policy' },
    };
    expect(validateToolAfterEvent(denied)).toEqual([]);
  });

  it('ties denied to a policy skip and error to the error outcome', () => {
    const deniedButRan = { ...sampleToolAfter(), outcome: 'denied' };
    expect(paths(validateToolAfterEvent(deniedButRan))).toEqual(['$.execution']);
    const errorNoDetail = { ...sampleToolAfter(), outcome: 'error' };
    expect(paths(validateToolAfterEvent(errorNoDetail))).toEqual(['$.error']);
    const okWithError = { ...sampleToolAfter(), error: { class: 'tool', message: 'm' } };
    expect(paths(validateToolAfterEvent(okWithError))).toEqual(['$.error']);
    const noMessage = { ...sampleToolAfter(), outcome: 'error', error: { class: 'tool', code: 'ENOENT' } };
    expect(paths(validateToolAfterEvent(noMessage))).toEqual(['$.error.message']);
    expect(validateToolAfterEvent({ ...noMessage, error: { class: 'tool', message: 'gone' } })).toEqual([]);
  });

  it('checks outcome, execution and items', () => {
    const bad = { ...sampleToolAfter(), outcome: 'maybe', execution: { status: 'skipped', reason: 'bored' } };
    expect(paths(validateToolAfterEvent(bad))).toEqual(['$.outcome', '$.execution.reason']);
    const { items: _i, ...noItems } = sampleToolAfter();
    expect(paths(validateToolAfterEvent(noItems))).toEqual(['$.items']);
    expect(
      paths(validateToolAfterEvent({ ...sampleToolAfter(), execution: { status: 'executed', reason: 'x' } })),
    ).toEqual(['$.execution']);
  });
});
