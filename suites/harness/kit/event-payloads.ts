/**
 * The suite's sample payload for each of the 19 interceptable events (driver protocol v1.1): every
 * field the draft's schema requires beyond the common envelope (execution-payloads.md,
 * interaction-payloads.md, task-workspace-lineage.md), with small, plausible values; nested objects
 * as the draft defines them (the elicitation result a text part holding the serialized MCP result). A case that
 * raises an event other than `tool.before` sends one of these as `invoke.params.event`; the
 * harness adds `source` and `time`. Each must validate once an envelope is filled in
 * (event-payloads.test.ts), so a harness that refuses one is at fault, not the sample.
 */
import type { InterceptableEvent } from '../../../protocol/events.js';
import type { JsonObject } from '../../../protocol/json.js';

const text = (id: string, value: string): JsonObject => ({
  id,
  kind: 'text',
  mediaType: 'text/plain',
  selection: 'body',
  text: value,
});

const message = (id: string, role: string, value: string): JsonObject => ({
  id,
  role,
  parts: [text(`${id}-p1`, value)],
});

const model = { id: 'model-a', provider: 'example' };
const attempt = { id: 'attempt-1', number: 1 };
const turn = { id: 'turn-1' };
const call = { id: 'call-sample' };
const tool = { name: 'Bash', origin: 'native', kind: 'shell', input: { command: 'ls' } };

/** Payload builders: fresh objects each time, so a case may change its copy. */
const PAYLOADS: Readonly<Record<InterceptableEvent, () => JsonObject>> = {
  'tool.before': () => ({ call, tool, path: 'native' }),
  'tool.after': () => ({
    call,
    tool,
    path: 'native',
    outcome: 'ok',
    execution: { status: 'executed' },
    items: [text('out-1', 'total 0')],
  }),
  'session.start': () => ({
    trigger: 'startup',
    harness: { name: 'example-harness', version: '1.0.0' },
    permissionMode: 'default',
    manifest: {},
    items: [],
  }),
  'config.change.before': () => ({
    change: { source: 'user', scope: 'project', settings: ['permissions'], summary: 'allow Bash' },
  }),
  'turn.start': () => ({ turn, trigger: 'user', items: [message('m-user', 'user', 'list files')] }),
  'turn.finish.before': () => ({
    turn,
    outcome: 'completed',
    continuationCount: 0,
    items: [message('m-answer', 'assistant', 'done')],
  }),
  'model.request.before': () => ({
    model,
    attempt,
    params: { temperature: 0 },
    items: [message('m-user', 'user', 'list files')],
  }),
  'model.switch.before': () => ({
    current: model,
    proposed: { id: 'model-b', provider: 'example' },
    reason: 'user',
  }),
  'tool.permission.request': () => ({
    call,
    tool,
    path: 'native',
    suggestions: {},
    sandboxBypass: false,
  }),
  'tool.batch.after': () => ({
    batch: { id: 'batch-1', callIds: [call.id] },
    calls: [{ call, tool, path: 'native', outcome: 'ok', execution: { status: 'executed' } }],
  }),
  'context.compact.before': () => ({ trigger: 'auto', items: [message('m-user', 'user', 'list files')] }),
  'context.compact.after': () => ({
    summary: { id: 'summary-1', kind: 'text', mediaType: 'text/plain', selection: 'metadata' },
    removed: [{ id: 'm-old-1' }, { id: 'm-old-2' }],
    execution: { status: 'executed' },
  }),
  'task.change.before': () => ({
    task: { id: 'task-1', operation: 'update', change: { status: 'completed' } },
  }),
  'user.elicitation.request': () => ({ elicitation: { server: 'example-mcp', mode: 'form' } }),
  'user.elicitation.result': () => ({
    elicitation: {
      server: 'example-mcp',
      mode: 'form',
      action: 'accept',
      result: text('elicit-result', JSON.stringify({ action: 'accept', content: { ok: true } })),
    },
  }),
  'user.message.inbound': () => ({
    message: { channel: 'chat', sender: 'user-1', messages: [message('m-in', 'user', 'hello')] },
  }),
  'user.message.outbound': () => ({
    message: { channel: 'chat', messages: [message('m-out', 'assistant', 'hello back')] },
  }),
  'workspace.change.before': () => ({ workspace: { kind: 'cwd', change: { cwd: '/work/next' } } }),
  'model.response.after': () => ({
    model,
    attempt,
    execution: { status: 'executed' },
    items: [message('m-answer', 'assistant', 'done')],
    finishReason: 'stop',
  }),
};

/** A fresh, valid payload for `type`: every field beyond the envelope. */
export function samplePayload(type: InterceptableEvent): JsonObject {
  return PAYLOADS[type]();
}
