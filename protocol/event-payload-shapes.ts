import { validatePart } from './content.js';
import { childPath, isJsonObject, type JsonObject, type JsonValue, type Violation } from './json.js';

/**
 * The nested payload objects of the events outside the tool family, as the draft's payload
 * documents define them: interaction-payloads.md with interaction-event.schema.json (closed
 * `change`, `attention`, `elicitation`, `message` and `failure` objects, their required members);
 * task-workspace-lineage.md with task-workspace-event.schema.json (closed `task`, `workspace` and
 * file-change objects); execution-payloads.md with execution-event.schema.json (models, attempts,
 * `execution`, compaction). Only the members each document names are judged; task
 * `change` and `prior` stay open, as the draft keeps them.
 */
type Check = (event: JsonObject, path: string, push: (p: string, message: string) => void) => void;

const OPERATIONS = ['create', 'update', 'remove'];
const WORKSPACE_KINDS = ['cwd', 'roots', 'switch'];
const ELICITATION_ACTIONS = ['accept', 'decline', 'cancel'];

/** An object at `key` with every member of `required`, and (when `closed`) no member outside `allowed`. */
function object(key: string, required: readonly string[], allowed?: readonly string[]): Check {
  return (event, path, push) => {
    const value = event[key];
    const at = childPath(path, key);
    if (value === undefined) return; // the event's own required list reports a missing key
    if (!isJsonObject(value)) return push(at, `${key} must be an object`);
    for (const member of required) {
      if (!(member in value)) push(childPath(at, member), `${key}.${member} is required`);
    }
    if (allowed === undefined) return;
    for (const member of Object.keys(value)) {
      if (!allowed.includes(member))
        push(childPath(at, member), `${key} is closed: "${member}" is not defined`);
    }
  };
}

function oneOf(key: string, member: string, values: readonly string[]): Check {
  return (event, path, push) => {
    const value = event[key];
    if (!isJsonObject(value) || !(member in value)) return;
    if (!values.includes(value[member] as string)) {
      push(childPath(childPath(path, key), member), `${key}.${member} must be one of ${values.join(', ')}`);
    }
  };
}

/** A workspace state (`change`, `prior`): closed, non-empty, `cwd` a non-empty string, roots unique strings. */
function workspaceState(member: string): Check {
  return (event, path, push) => {
    const workspace = event.workspace;
    if (!isJsonObject(workspace) || !(member in workspace)) return;
    const state = workspace[member];
    const at = childPath(childPath(path, 'workspace'), member);
    if (!isJsonObject(state) || Object.keys(state).length === 0) {
      return push(at, `workspace.${member} must be a non-empty object`);
    }
    for (const key of Object.keys(state)) {
      if (key !== 'cwd' && key !== 'workspaceRoots')
        push(childPath(at, key), `workspace.${member} is closed: "${key}" is not defined`);
    }
    if ('cwd' in state && !(typeof state.cwd === 'string' && state.cwd.length > 0)) {
      push(childPath(at, 'cwd'), 'cwd must be a non-empty string');
    }
    const roots = state.workspaceRoots;
    if (
      roots !== undefined &&
      !(
        Array.isArray(roots) &&
        roots.every((r) => typeof r === 'string' && r.length > 0) &&
        new Set(roots).size === roots.length
      )
    ) {
      push(childPath(at, 'workspaceRoots'), 'workspaceRoots must be unique non-empty strings');
    }
  };
}

/** An optional singular text part (the elicitation request or result body). */
function textPart(key: string, member: string): Check {
  return (event, path, push) => {
    const holder = event[key];
    if (!isJsonObject(holder) || !(member in holder)) return;
    const at = childPath(childPath(path, key), member);
    const part = holder[member] as JsonValue;
    if (!isJsonObject(part) || part.kind !== 'text') return push(at, `${key}.${member} must be a text part`);
    for (const v of validatePart(part, at)) push(v.path, v.message);
  };
}

const changes: Check = (event, path, push) => {
  const list = event.changes;
  const at = childPath(path, 'changes');
  if (list === undefined) return;
  if (!Array.isArray(list) || list.length === 0) return push(at, 'changes must be a non-empty array');
  list.forEach((change, i) => {
    const p = childPath(at, i);
    if (!isJsonObject(change)) return push(p, 'a file change must be an object');
    if (typeof change.path !== 'string' || change.path.length === 0)
      push(childPath(p, 'path'), 'path is required');
    if (!OPERATIONS.includes(change.operation as string)) {
      push(childPath(p, 'operation'), `operation must be one of ${OPERATIONS.join(', ')}`);
    }
    if (typeof change.agentCaused !== 'boolean')
      push(childPath(p, 'agentCaused'), 'agentCaused must be a boolean');
  });
};

const TASK = [
  object(
    'task',
    ['id', 'operation', 'change'],
    ['id', 'operation', 'change', 'prior', 'description', 'synthesized'],
  ),
  oneOf('task', 'operation', OPERATIONS),
];
const WORKSPACE = [
  object('workspace', ['kind', 'change'], ['kind', 'change', 'prior', 'reason']),
  oneOf('workspace', 'kind', WORKSPACE_KINDS),
  workspaceState('change'),
  workspaceState('prior'),
];
const CONFIG_BEFORE = ['source', 'scope', 'settings', 'summary', 'path'];
const config = (allowed: readonly string[]) => [
  object('change', ['source', 'scope', 'settings', 'summary'], allowed),
];
const ELICITATION_MODES = ['form', 'url'];

/** A string member of `key`, when present: non-empty (the interaction overlay's `minLength: 1`). */
function text(key: string, member: string): Check {
  return (event, path, push) => {
    const value = event[key];
    if (!isJsonObject(value) || !(member in value)) return;
    const v = value[member];
    if (typeof v !== 'string' || v.length === 0) {
      push(childPath(childPath(path, key), member), `${key}.${member} must be a non-empty string`);
    }
  };
}

const SKIP_REASONS = ['supplied_result', 'policy', 'cancelled', 'timeout', 'other'];

/** `execution`: `{status: executed}`, or skipped with one of the draft's reasons (and a `detail` but for a supplied result). */
const execution: Check = (event, path, push) => {
  const value = event.execution;
  const at = childPath(path, 'execution');
  if (value === undefined) return;
  if (!isJsonObject(value)) return push(at, 'execution must be an object');
  const allowed =
    value.status === 'executed'
      ? ['status']
      : value.reason === 'supplied_result'
        ? ['status', 'reason']
        : ['status', 'reason', 'detail'];
  if (value.status !== 'executed' && value.status !== 'skipped') {
    return push(childPath(at, 'status'), 'execution.status must be executed or skipped');
  }
  if (value.status === 'skipped' && !SKIP_REASONS.includes(value.reason as string)) {
    push(childPath(at, 'reason'), `a skipped execution has a reason of ${SKIP_REASONS.join(', ')}`);
  }
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) push(childPath(at, key), `execution is closed: "${key}" is not defined here`);
  }
};

/** A model identity (`{id, provider}`, closed, both non-empty strings) at each of `keys`. */
function models(...keys: string[]): Check[] {
  return keys.flatMap((key) => [
    object(key, ['id', 'provider'], ['id', 'provider']),
    text(key, 'id'),
    text(key, 'provider'),
  ]);
}

/** A provider attempt: `{id, number}` with a positive integer number, closed. */
const attempt: Check[] = [
  object('attempt', ['id', 'number'], ['id', 'number', 'synthesized']),
  (event, path, push) => {
    const value = event.attempt;
    if (!isJsonObject(value) || !('number' in value)) return;
    if (!(Number.isInteger(value.number) && (value.number as number) >= 1)) {
      push(childPath(childPath(path, 'attempt'), 'number'), 'attempt.number must be a positive integer');
    }
  },
];

/** `removed` at context.compact.after: a list of item identities `{id}`. */
const removed: Check = (event, path, push) => {
  const list = event.removed;
  const at = childPath(path, 'removed');
  if (list === undefined) return;
  if (!Array.isArray(list)) return push(at, 'removed must be a list of {id}');
  list.forEach((item, i) => {
    const ok =
      isJsonObject(item) &&
      Object.keys(item).length === 1 &&
      typeof item.id === 'string' &&
      item.id.length > 0;
    if (!ok) push(childPath(at, i), 'a removed item is exactly {id}');
  });
};

const compactTrigger: Check = (event, path, push) => {
  if ('trigger' in event && !['auto', 'manual', 'hook'].includes(event.trigger as string)) {
    push(childPath(path, 'trigger'), 'context.compact.before trigger must be one of auto, manual, hook');
  }
};

/** The nested checks of each event that has them. */
export const PAYLOAD_SHAPES: Readonly<Record<string, readonly Check[]>> = {
  'config.change.before': config(CONFIG_BEFORE),
  'config.change.after': config([...CONFIG_BEFORE, 'mcpServers']),
  'user.attention': [object('attention', ['kind', 'message', 'title'], ['kind', 'message', 'title'])],
  'user.elicitation.request': [
    object('elicitation', ['server', 'mode'], ['server', 'mode', 'request']),
    oneOf('elicitation', 'mode', ELICITATION_MODES),
    textPart('elicitation', 'request'),
  ],
  'user.elicitation.result': [
    object('elicitation', ['server', 'mode', 'action'], ['server', 'mode', 'action', 'result']),
    oneOf('elicitation', 'mode', ELICITATION_MODES),
    oneOf('elicitation', 'action', ELICITATION_ACTIONS),
    textPart('elicitation', 'result'),
  ],
  // channel and messages of both user.message events are judged with their content (event-validation.ts)
  'user.message.inbound': [
    object('message', ['sender'], ['channel', 'sender', 'messages']),
    text('message', 'sender'),
  ],
  'user.message.outbound': [object('message', [], ['channel', 'messages'])],
  'hook.failure': [
    object('failure', ['backendId', 'reason', 'policy'], ['backendId', 'reason', 'policy']),
    oneOf('failure', 'policy', ['fail-open', 'fail-closed']),
  ],
  'model.request.before': [...models('model'), ...attempt],
  'model.response.after': [...models('model'), ...attempt, execution],
  'model.error': [...models('model'), ...attempt, execution, object('error', ['message', 'class'])],
  'model.switch.before': models('current', 'proposed'),
  'model.switch.after': models('previous', 'current'),
  'context.compact.before': [compactTrigger],
  'context.compact.after': [removed, execution],
  'task.change.before': TASK,
  'task.change.after': TASK,
  'workspace.change.before': WORKSPACE,
  'workspace.change.after': WORKSPACE,
  'file.changed': [changes],
};

/** The violations of an event's nested payload objects, tagged `requirement`. */
export function payloadShapeViolations(event: JsonObject, path: string, requirement: string): Violation[] {
  const out: Violation[] = [];
  const push = (p: string, message: string) => {
    out.push({ path: p, message, requirement });
  };
  for (const check of PAYLOAD_SHAPES[event.type as string] ?? []) check(event, path, push);
  return out;
}
