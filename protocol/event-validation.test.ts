import { describe, expect, it } from 'vitest';
import { validateEvent } from './event-validation.js';
import type { JsonObject } from './json.js';
import { sampleMessage, sampleToolAfter, sampleToolBefore } from './test-samples.js';
import { validateItems } from './tool-events.js';

const paths = (vs: { path: string }[]) => vs.map((v) => v.path);
const base = { id: 'e', source: 'urn:x:y', time: '2026-01-01T00:00:00Z' };

describe('validateEvent and validateItems', () => {
  it('dispatches tool events to their deep validators', () => {
    expect(validateEvent({ ...sampleToolBefore(), outcome: 'ok' })[0]?.requirement).toBe('AHP-TB-001');
    expect(paths(validateEvent({ ...sampleToolAfter(), outcome: 'nope' }))).toEqual(['$.outcome']);
  });

  it('checks the required payload of other events and rejects tool identity on them', () => {
    expect(paths(validateEvent({ ...base, type: 'session.end', session: { id: 's' }, reason: 'r' }))).toEqual(
      ['$.outcome'],
    );
    expect(
      paths(
        validateEvent({
          ...base,
          type: 'session.end',
          session: { id: 's' },
          reason: 'r',
          outcome: 'timed_out',
        }),
      ),
    ).toEqual(['$.outcome']);
    expect(
      paths(validateEvent({ ...base, type: 'turn.start', turn: { id: 't' }, trigger: 'user', items: [] })),
    ).toEqual([]);
    expect(paths(validateEvent({ ...base, type: 'task.change.after', task: {} }))).toEqual([
      '$.task.id',
      '$.task.operation',
      '$.task.change',
    ]);
    const change = { source: 'user', scope: 'project', settings: [], summary: 's' };
    const withTool = { ...base, type: 'config.change.before', change, tool: { name: 'x' } };
    expect(paths(validateEvent(withTool))).toEqual(['$.tool']);
    expect(paths(validateEvent({ ...base, type: 'unknown.event' }))).toEqual(['$.type']);
  });

  it('validates items as messages or bare parts', () => {
    expect(
      validateItems(
        [sampleMessage(), { id: 'f', kind: 'text', mediaType: 'text/plain', selection: 'omit' }],
        '$',
      ),
    ).toEqual([]);
    const { role: _r, ...noRole } = sampleMessage();
    expect(paths(validateItems([noRole], '$'))).toEqual(['$[0].role']);
    expect(paths(validateItems({}, '$'))).toEqual(['$']);
  });
});

describe('user.message events', () => {
  const event = (type: string, role: string): JsonObject => ({
    ...base,
    type,
    message: {
      channel: 'chat',
      ...(type === 'user.message.inbound' ? { sender: 'u1' } : {}),
      messages: [sampleMessage(role)],
    },
  });

  it('accepts user messages inbound and assistant messages outbound', () => {
    expect(validateEvent(event('user.message.inbound', 'user'))).toEqual([]);
    expect(validateEvent(event('user.message.outbound', 'assistant'))).toEqual([]);
  });

  it('rejects the other role in each direction (AHP-CONTENT-001)', () => {
    expect(validateEvent(event('user.message.inbound', 'assistant'))).toEqual([
      { path: '$.message.messages[0].role', message: expect.any(String), requirement: 'AHP-CONTENT-001' },
    ]);
    expect(paths(validateEvent(event('user.message.outbound', 'user')))).toEqual([
      '$.message.messages[0].role',
    ]);
  });

  it('requires a channel, an inbound sender and canonical messages', () => {
    const e = { ...base, type: 'user.message.inbound', message: { messages: [{ id: 'm', role: 'user' }] } };
    expect(paths(validateEvent(e))).toEqual([
      '$.message.sender',
      '$.message.channel',
      '$.message.messages[0].parts',
    ]);
  });
});

describe('nested payload objects (event-payload-shapes.ts)', () => {
  const task = { id: 't1', operation: 'create', change: { status: 'open' } };
  const workspace = { kind: 'cwd', change: { cwd: '/new' } };

  it('accepts the task, workspace and file-change shapes of task-workspace-lineage.md', () => {
    expect(validateEvent({ ...base, type: 'task.change.before', task })).toEqual([]);
    expect(validateEvent({ ...base, type: 'workspace.change.after', workspace })).toEqual([]);
    const changes = [{ path: '/w/a.txt', operation: 'update', agentCaused: true }];
    expect(validateEvent({ ...base, type: 'file.changed', changes })).toEqual([]);
  });

  it('keeps task and workspace closed, their enums, and the workspace state non-empty and closed', () => {
    const badTask = { ...task, operation: 'rename', status: 'open' };
    expect(paths(validateEvent({ ...base, type: 'task.change.before', task: badTask }))).toEqual([
      '$.task.status',
      '$.task.operation',
    ]);
    const badWorkspace = { kind: 'move', change: {}, prior: { cwd: '/a', root: '/a' } };
    expect(
      paths(validateEvent({ ...base, type: 'workspace.change.before', workspace: badWorkspace })),
    ).toEqual(['$.workspace.kind', '$.workspace.change', '$.workspace.prior.root']);
    expect(paths(validateEvent({ ...base, type: 'workspace.change.before' }))).toEqual(['$.workspace']);
    expect(paths(validateEvent({ ...base, type: 'file.changed', changes: [] }))).toEqual(['$.changes']);
  });

  it('requires the interaction payload members and a text part for an elicitation body', () => {
    const elicitation = { server: 'mcp', mode: 'form', action: 'maybe', result: { content: { ok: true } } };
    expect(paths(validateEvent({ ...base, type: 'user.elicitation.result', elicitation }))).toEqual([
      '$.elicitation.action',
      '$.elicitation.result',
    ]);
    expect(
      paths(validateEvent({ ...base, type: 'config.change.after', change: { source: 'user' } })),
    ).toEqual(['$.change.scope', '$.change.settings', '$.change.summary']);
  });

  it('keeps the interaction objects closed, with a string sender and the mode and policy enums', () => {
    const message = { channel: 'chat', sender: { id: 'u' }, messages: [], to: 'x' };
    expect(paths(validateEvent({ ...base, type: 'user.message.inbound', message }))).toEqual([
      '$.message.to',
      '$.message.sender',
    ]);
    const elicitation = { server: 'mcp', mode: 'chat', prompt: 'p' };
    expect(paths(validateEvent({ ...base, type: 'user.elicitation.request', elicitation }))).toEqual([
      '$.elicitation.prompt',
      '$.elicitation.mode',
    ]);
    const failure = { backendId: 'b', reason: 'timeout', policy: 'retry' };
    expect(paths(validateEvent({ ...base, type: 'hook.failure', parentEventId: 'e0', failure }))).toEqual([
      '$.failure.policy',
    ]);
  });

  it('checks models, attempts, execution and compaction as execution-event.schema.json defines them', () => {
    const model = { id: 'm', provider: 'p' };
    const good = {
      ...base,
      type: 'model.response.after',
      model,
      attempt: { id: 'a', number: 1 },
      execution: { status: 'skipped', reason: 'policy', detail: 'd' },
      items: [],
      finishReason: 'stop',
    };
    expect(validateEvent(good)).toEqual([]);
    const bad = {
      ...good,
      model: { id: 'm', provider: '', region: 'eu' },
      attempt: { id: 'a', number: 0 },
      execution: { status: 'skipped', reason: 'supplied_result', detail: 'd' },
    };
    expect(paths(validateEvent(bad))).toEqual([
      '$.model.region',
      '$.model.provider',
      '$.attempt.number',
      '$.execution.detail',
    ]);
    const compacted = { ...base, type: 'context.compact.after', summary: {}, execution: { status: 'done' } };
    expect(paths(validateEvent({ ...compacted, removed: { items: 2 } }))).toEqual([
      '$.removed',
      '$.execution.status',
    ]);
    expect(
      paths(validateEvent({ ...base, type: 'context.compact.before', trigger: 'size', items: [] })),
    ).toEqual(['$.trigger']);
  });
});
