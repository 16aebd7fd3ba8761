import { validateMessage, validatePart } from './content.js';
import { validateEventEnvelope } from './events.js';
import {
  childPath,
  isJsonObject,
  violationSink,
  type JsonObject,
  type JsonValue,
  type Violation,
} from './json.js';

const TB = 'AHP-TB-001';
const CALL_KEYS = new Set(['id', 'synthesized']);
const TOOL_KEYS = new Set(['name', 'input', 'origin', 'kind', 'mcp']);
const FORBIDDEN_ON_BEFORE = ['outcome', 'execution', 'durationMs', 'fileChanges'] as const;
const OUTCOMES = ['ok', 'error', 'denied', 'cancelled', 'timeout'] as const;
const SKIP_REASONS = ['supplied_result', 'policy', 'cancelled', 'timeout', 'other'] as const;

type Push = (path: string, message: string) => void;

function nonEmpty(v: JsonValue | undefined): v is string {
  return typeof v === 'string' && v.length > 0;
}

/**
 * Validates a `tool.before` event in depth (AHP-TB-001): the common envelope, a closed `call`
 * `{id, synthesized?}`, a closed `tool` `{name, input object, origin native|mcp, kind?, mcp?}`
 * with `mcp` exactly when the origin is mcp, a non-empty `path`, and none of the fields that
 * only exist once the tool has run.
 */
export function validateToolBeforeEvent(value: JsonValue, path = '$'): Violation[] {
  const out = validateEventEnvelope(value, path, TB);
  if (!isJsonObject(value)) return out;
  const push: Push = violationSink(out, TB);
  if (value.type !== 'tool.before') push(childPath(path, 'type'), 'type must be "tool.before"');
  checkCallToolPath(value, path, push);
  for (const key of FORBIDDEN_ON_BEFORE) {
    if (key in value)
      push(childPath(path, key), `${key} only exists after the tool ran; forbidden on tool.before`);
  }
  return out;
}

/**
 * Validates a `tool.after` event: the tool identity fields of `tool.before` plus `outcome`,
 * `execution`, `items` and the error rule (error present exactly when the outcome is error).
 */
export function validateToolAfterEvent(
  value: JsonValue,
  path = '$',
  requirement = 'AHP-RPC-001',
): Violation[] {
  const out = validateEventEnvelope(value, path, requirement);
  if (!isJsonObject(value)) return out;
  const push: Push = violationSink(out, requirement);
  if (value.type !== 'tool.after') push(childPath(path, 'type'), 'type must be "tool.after"');
  checkCallToolPath(value, path, push);
  const outcome = value.outcome;
  if (typeof outcome !== 'string' || !(OUTCOMES as readonly string[]).includes(outcome)) {
    push(childPath(path, 'outcome'), `outcome must be one of ${OUTCOMES.join(', ')}`);
  }
  const exec = value.execution;
  const execPath = childPath(path, 'execution');
  if (!isJsonObject(exec)) push(execPath, 'execution is required');
  else if (exec.status === 'executed') {
    if (Object.keys(exec).some((k) => k !== 'status'))
      push(execPath, 'an executed execution carries only status');
  } else if (exec.status === 'skipped') {
    if (typeof exec.reason !== 'string' || !(SKIP_REASONS as readonly string[]).includes(exec.reason)) {
      push(childPath(execPath, 'reason'), `a skip reason is one of ${SKIP_REASONS.join(', ')}`);
    }
  } else push(childPath(execPath, 'status'), 'status must be executed or skipped');
  if (
    outcome === 'denied' &&
    !(isJsonObject(exec) && exec.status === 'skipped' && exec.reason === 'policy')
  ) {
    push(execPath, 'a denied outcome requires execution skipped with reason policy');
  }
  const errPath = childPath(path, 'error');
  if (outcome === 'error') {
    const err = value.error;
    if (!isJsonObject(err)) push(errPath, 'error is required when the outcome is error');
    else {
      if (typeof err.class !== 'string') push(childPath(errPath, 'class'), 'error.class must be a string');
      if (typeof err.message !== 'string')
        push(childPath(errPath, 'message'), 'error.message must be a string');
    }
  } else if ('error' in value) push(errPath, 'error is forbidden unless the outcome is error');
  if (!('items' in value)) push(childPath(path, 'items'), 'items is required on tool.after');
  else out.push(...validateItems(value.items as JsonValue, childPath(path, 'items'), requirement));
  return out;
}

/** Checks an event's `items`: messages (with `parts`) or bare parts, each canonical. */
export function validateItems(value: JsonValue, path: string, requirement = 'AHP-CONTENT-001'): Violation[] {
  if (!Array.isArray(value)) return [{ path, message: 'items must be an array', requirement }];
  return value.flatMap((item, i) =>
    isJsonObject(item) && ('parts' in item || 'role' in item)
      ? validateMessage(item, childPath(path, i), requirement)
      : validatePart(item, childPath(path, i), requirement),
  );
}

function checkCallToolPath(value: JsonObject, path: string, push: Push): void {
  const call = value.call;
  const callPath = childPath(path, 'call');
  if (!isJsonObject(call)) push(callPath, 'call {id} is required');
  else {
    if (!nonEmpty(call.id)) push(childPath(callPath, 'id'), 'call.id must be a non-empty string');
    if ('synthesized' in call && typeof call.synthesized !== 'boolean') {
      push(childPath(callPath, 'synthesized'), 'synthesized must be a boolean');
    }
    for (const k of Object.keys(call))
      if (!CALL_KEYS.has(k)) push(childPath(callPath, k), `unknown call field "${k}"`);
  }
  const tool = value.tool;
  const toolPath = childPath(path, 'tool');
  if (!isJsonObject(tool)) push(toolPath, 'tool is required');
  else checkTool(tool, toolPath, push);
  if (!nonEmpty(value.path))
    push(childPath(path, 'path'), 'path must be a non-empty string naming the tool path');
}

function checkTool(tool: JsonObject, path: string, push: Push): void {
  for (const k of Object.keys(tool)) {
    if (!TOOL_KEYS.has(k))
      push(childPath(path, k), `unknown tool field "${k}" (call identity lives in call.id)`);
  }
  if (!nonEmpty(tool.name)) push(childPath(path, 'name'), 'tool.name must be a non-empty string');
  if (!isJsonObject(tool.input))
    push(childPath(path, 'input'), 'tool.input must be a JSON object, never an encoded string');
  if (tool.origin !== 'native' && tool.origin !== 'mcp')
    push(childPath(path, 'origin'), 'origin must be native or mcp');
  if ('kind' in tool && typeof tool.kind !== 'string') push(childPath(path, 'kind'), 'kind must be a string');
  if (tool.origin === 'mcp') {
    const mcpPath = childPath(path, 'mcp');
    if (!('mcp' in tool)) push(mcpPath, 'mcp is required when origin is mcp');
    else checkMcp(tool.mcp as JsonValue, mcpPath, push);
  } else if ('mcp' in tool) push(childPath(path, 'mcp'), 'mcp is forbidden unless origin is mcp');
}

function checkMcp(mcp: JsonValue, path: string, push: Push): void {
  if (!isJsonObject(mcp)) return push(path, 'mcp must be an object');
  if (!isJsonObject(mcp.server) || !nonEmpty(mcp.server.id))
    push(childPath(path, 'server'), 'mcp.server {id} is required');
  if (!nonEmpty(mcp.toolName)) push(childPath(path, 'toolName'), 'mcp.toolName is required');
  if (mcp.provenance !== 'runtime' && mcp.provenance !== 'inferred') {
    push(childPath(path, 'provenance'), 'provenance must be runtime or inferred');
  }
  const conn = mcp.connection;
  const connPath = childPath(path, 'connection');
  if (!isJsonObject(conn)) return push(connPath, 'mcp.connection is required');
  const gaps = new Set(
    Array.isArray(conn.gaps)
      ? conn.gaps.flatMap((g) => (isJsonObject(g) && typeof g.path === 'string' ? [g.path] : []))
      : [],
  );
  // Each location field is either present or explicitly declared a gap.
  const need = (keys: string[]) => {
    for (const k of keys)
      if (!(k in conn) && !gaps.has(k)) push(childPath(connPath, k), `${k} or a gap for it is required`);
  };
  const transport = conn.transport;
  if (transport === 'http' || transport === 'sse') need(['url']);
  else if (transport === 'stdio') need(['command']);
  else if (typeof transport === 'string' && transport.startsWith('_')) need(['addressForm', 'address']);
  else push(childPath(connPath, 'transport'), 'transport must be http, sse, stdio or an _extension');
}
