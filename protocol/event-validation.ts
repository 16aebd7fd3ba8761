import { validateMessageList } from './content.js';
import { payloadShapeViolations } from './event-payload-shapes.js';
import { isKnownEvent, validateEventEnvelope } from './events.js';
import { childPath, isJsonObject, type JsonValue, type Violation } from './json.js';
import { validateItems, validateToolAfterEvent, validateToolBeforeEvent } from './tool-events.js';

/**
 * Payload fields each event requires beyond the common envelope (protocol reference §2.2,
 * execution payloads). Presence is checked here; the nested objects the payload documents define
 * are checked by event-payload-shapes.ts, and tool.before and tool.after go deeper.
 */
export const REQUIRED_PAYLOAD: Readonly<Record<string, readonly string[]>> = {
  'session.start': ['session', 'trigger', 'harness', 'permissionMode', 'manifest', 'items'],
  'session.end': ['session', 'outcome', 'reason'],
  'turn.start': ['turn', 'trigger', 'items'],
  'turn.finish.before': ['turn', 'outcome', 'continuationCount', 'items'],
  'turn.end': ['turn', 'outcome', 'continuationCount', 'items'],
  'turn.progress': ['turn', 'item', 'delta', 'final'],
  'model.request.before': ['model', 'attempt', 'params', 'items'],
  'model.response.after': ['model', 'attempt', 'execution', 'items', 'finishReason'],
  'model.error': ['model', 'attempt', 'execution', 'error'],
  'model.switch.before': ['current', 'proposed', 'reason'],
  'model.switch.after': ['previous', 'current', 'reason'],
  'tool.permission.request': ['call', 'tool', 'path', 'suggestions', 'sandboxBypass'],
  'tool.permission.resolved': ['call', 'tool', 'path', 'decision', 'decidedBy'],
  'tool.progress': ['call', 'tool', 'path', 'partialOutput', 'backgrounded'],
  'tool.batch.after': ['batch', 'calls'],
  'context.compact.before': ['trigger', 'items'],
  'context.compact.after': ['summary', 'removed', 'execution'],
  'config.change.before': ['change'],
  'config.change.after': ['change'],
  'task.change.before': ['task'],
  'task.change.after': ['task'],
  'user.attention': ['attention'],
  'user.elicitation.request': ['elicitation'],
  'user.elicitation.result': ['elicitation'],
  'user.message.inbound': ['message'],
  'user.message.outbound': ['message'],
  'workspace.change.before': ['workspace'],
  'workspace.change.after': ['workspace'],
  'file.changed': ['changes'],
  'hook.failure': ['failure', 'parentEventId'],
};

const SESSION_END_OUTCOMES = ['completed', 'cancelled', 'error', 'unknown'];
const TURN_TRIGGERS = ['user', 'continuation', 'hook', 'external'];

/**
 * Validates any event: the common envelope, then tool.before / tool.after in depth, and for the
 * other 30 events the presence of their required payload fields, their nested payload objects
 * (event-payload-shapes.ts) and a few cheap enum rules.
 * Tool identity (`tool`, `call`) on a non-tool event is the revision "0.1" shape and is rejected.
 */
export function validateEvent(value: JsonValue, path = '$', requirement = 'AHP-RPC-001'): Violation[] {
  if (isJsonObject(value) && value.type === 'tool.before') return validateToolBeforeEvent(value, path);
  if (isJsonObject(value) && value.type === 'tool.after')
    return validateToolAfterEvent(value, path, requirement);
  const out = validateEventEnvelope(value, path, requirement);
  if (!isJsonObject(value) || typeof value.type !== 'string' || !isKnownEvent(value.type)) return out;
  const type = value.type;
  const push = (p: string, message: string) => out.push({ path: p, message, requirement });
  for (const key of REQUIRED_PAYLOAD[type] ?? []) {
    if (!(key in value)) push(childPath(path, key), `${type} requires ${key}`);
  }
  if (!type.startsWith('tool.')) {
    for (const key of ['tool', 'call'] as const) {
      if (key in value) push(childPath(path, key), `${key} belongs to tool events, not ${type}`);
    }
  }
  if (
    type === 'session.end' &&
    'outcome' in value &&
    !SESSION_END_OUTCOMES.includes(value.outcome as string)
  ) {
    push(childPath(path, 'outcome'), `session.end outcome must be one of ${SESSION_END_OUTCOMES.join(', ')}`);
  }
  if (type === 'turn.start' && 'trigger' in value && !TURN_TRIGGERS.includes(value.trigger as string)) {
    push(childPath(path, 'trigger'), `turn.start trigger must be one of ${TURN_TRIGGERS.join(', ')}`);
  }
  out.push(...payloadShapeViolations(value, path, requirement));
  if (type === 'user.message.inbound' || type === 'user.message.outbound') {
    out.push(...checkUserMessage(value.message, childPath(path, 'message'), type, requirement));
  }
  if ('items' in value) out.push(...validateItems(value.items as JsonValue, childPath(path, 'items')));
  return out;
}

/** Inbound messages come from the user and outbound ones from the assistant, in canonical form. */
function checkUserMessage(
  value: JsonValue | undefined,
  path: string,
  type: string,
  requirement: string,
): Violation[] {
  if (!isJsonObject(value))
    return value === undefined ? [] : [{ path, message: 'message must be an object', requirement }];
  const out: Violation[] = [];
  if (typeof value.channel !== 'string') {
    out.push({ path: childPath(path, 'channel'), message: 'message.channel must be a string', requirement });
  }
  const list = value.messages;
  const listPath = childPath(path, 'messages');
  out.push(...validateMessageList(list as JsonValue, listPath));
  const role = type === 'user.message.inbound' ? 'user' : 'assistant';
  if (Array.isArray(list)) {
    list.forEach((m, i) => {
      if (isJsonObject(m) && typeof m.role === 'string' && m.role !== role) {
        out.push({
          path: childPath(childPath(listPath, i), 'role'),
          message: `${type} messages have role ${role}`,
          requirement: 'AHP-CONTENT-001',
        });
      }
    });
  }
  return out;
}
