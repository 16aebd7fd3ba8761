#!/usr/bin/env node
// A minimal harness driver (driver protocol v1) in plain Node.js with no dependencies.
// It wraps a deliberately tiny harness of its own: stdio backends only, `tool.before` intercepts
// only, one process per event, `deny` as the only advertised effect. It shows the shape of a
// driver; the suite reports what its features rule out as untested (see docs/driver-protocol.md,
// "The minimal example").
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';

const GENERIC_REASON = 'Required policy backend unavailable.';
const SOURCE = `urn:uuid:${randomUUID()}`;
let hooks; // the accepted registration's hooks, or undefined
let closed = false;
let closes = 0; // how many times `close` ran: a call that sees it change was pending at close
const children = new Set();

// ---- the tiny harness ----------------------------------------------------------------------

// Events the draft lets a backend observe but never intercept.
const OBSERVATION_ONLY = new Set([
  'session.end',
  'config.change.after',
  'turn.end',
  'turn.progress',
  'model.error',
  'model.switch.after',
  'tool.permission.resolved',
  'tool.progress',
  'task.change.after',
  'user.attention',
  'workspace.change.after',
  'file.changed',
  'hook.failure',
]);

function checkRegistration(doc) {
  const issues = [];
  const issue = (path, message) => issues.push({ path, message });
  if (doc?.protocolVersion !== 'draft') issue('$.protocolVersion', 'must be "draft"');
  if (!Array.isArray(doc?.hooks) || doc.hooks.length === 0) issue('$.hooks', 'must be a non-empty array');
  const ids = new Set();
  (Array.isArray(doc?.hooks) ? doc.hooks : []).forEach((hook, i) => {
    const at = `$.hooks[${i}]`;
    if (ids.has(hook?.id)) issue(`${at}.id`, 'must be unique in the document');
    ids.add(hook?.id);
    if (hook?.transport?.type !== 'stdio')
      issue(`${at}.transport`, 'this minimal harness supports stdio only');
    if (typeof hook?.transport?.command !== 'string') issue(`${at}.transport.command`, 'must be a string');
    (Array.isArray(hook?.subscriptions) ? hook.subscriptions : []).forEach((sub, j) => {
      const sat = `${at}.subscriptions[${j}]`;
      if (sub?.scope === 'managed' && sub.disableable !== false)
        issue(`${sat}.disableable`, 'a managed subscription must set disableable to false');
      if (sub?.mode !== 'intercept') {
        // Observers cannot block, so a failure policy or a deadline on one means nothing.
        for (const field of ['failurePolicy', 'timeoutMs']) {
          if (sub && field in sub) issue(`${sat}.${field}`, 'an observe subscription must not carry it');
        }
        return; // observe subscriptions are not delivered here
      }
      (Array.isArray(sub.events) ? sub.events : []).forEach((name, k) => {
        if (OBSERVATION_ONLY.has(name))
          issue(`${sat}.events[${k}]`, 'an observation-only event cannot be intercepted');
      });
      if (!Number.isInteger(sub.timeoutMs) || sub.timeoutMs < 1)
        issue(`${sat}.timeoutMs`, 'must be a positive integer');
      if (sub.failurePolicy !== 'fail-open' && sub.failurePolicy !== 'fail-closed') {
        issue(`${sat}.failurePolicy`, 'must be "fail-open" or "fail-closed" (there is no default)');
      }
    });
  });
  return issues;
}

const DENY_FIELDS = new Set(['type', 'reason', 'code', 'extensions']);
const matches = (events) => events.some((e) => e === '*' || e === 'tool.*' || e === 'tool.before');

/** Sends one intercept request to a fresh backend process; resolves with a reply or a failure class. */
function ask(hook, frame, timeoutMs) {
  return new Promise((resolve) => {
    const { command, args = [], cwd } = hook.transport;
    const child = spawn(command, args, {
      cwd,
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    children.add(child);
    let buffered = '';
    let done = false;
    const settle = (outcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      children.delete(child);
      child.kill('SIGKILL');
      resolve(outcome);
    };
    const timer = setTimeout(() => settle({ failure: 'deadline-exceeded' }), timeoutMs);
    child.on('error', () => settle({ failure: 'process' }));
    // 'close' comes after stdout is drained, so a reply written just before exiting is seen first.
    child.on('close', () => settle({ failure: 'process' }));
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const nl = buffered.indexOf('\n');
      if (nl !== -1) settle({ line: buffered.slice(0, nl) });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(`${frame}\n`);
  });
}

/** Judges a reply line: an explicit deny, no effect, or an operational-failure class. */
function judge(line, id) {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return { failure: 'malformed' };
  }
  if (msg?.jsonrpc !== '2.0' || typeof msg !== 'object') return { failure: 'malformed' };
  if (msg.id !== id) return { failure: 'id-mismatch' };
  if (msg.error)
    return { failure: [-32001, -32002].includes(msg.error.code) ? 'unsupported' : 'jsonrpc-error' };
  const result = msg.result;
  if (!result || !Array.isArray(result.effects)) return { failure: 'missing-fields' };
  if (result.protocolVersion !== 'draft') return { failure: 'unsupported' };
  const valid = (e) =>
    e?.type === 'deny' &&
    typeof e.reason === 'string' &&
    e.reason !== '' &&
    Object.keys(e).every((field) => DENY_FIELDS.has(field)); // an unknown field rejects the reply
  if (!result.effects.every(valid)) return { failure: 'invalid-effects' };
  return result.effects.length > 0 ? { deny: result.effects[0].reason } : {};
}

async function raiseToolBefore({ session, call, tool, id }) {
  const event = {
    id: id ?? `evt_${randomUUID()}`,
    source: SOURCE,
    type: 'tool.before',
    time: new Date().toISOString(),
  };
  if (session) event.session = session;
  Object.assign(event, { call, tool: { origin: 'native', ...tool }, path: 'native' });
  const frame = JSON.stringify({
    jsonrpc: '2.0',
    id: event.id,
    method: 'hooks/intercept',
    params: { protocolVersion: 'draft', event, capabilities: { effects: ['deny'] } },
  });
  const audit = [];
  const closesAtStart = closes;
  for (const hook of hooks) {
    for (const sub of hook.subscriptions ?? []) {
      if (sub.mode !== 'intercept' || !matches(sub.events ?? [])) continue;
      const sent = await ask(hook, frame, sub.timeoutMs);
      const entry = { backendId: hook.id, policy: sub.failurePolicy };
      if (closes !== closesAtStart) {
        // `close` killed the backend under this call: it is interrupted, never permission.
        audit.push({ ...entry, outcome: 'interrupted' });
        return {
          decision: 'deny',
          reason: GENERIC_REASON,
          synthetic: true,
          interrupted: true,
          ending: 'closed',
          eventId: event.id,
          audit,
        };
      }
      const verdict = sent.failure ? sent : judge(sent.line, event.id);
      if (verdict.failure) {
        audit.push({
          ...entry,
          outcome: 'operational-failure',
          failureClass: verdict.failure,
          synthetic: sub.failurePolicy === 'fail-closed',
        });
        if (sub.failurePolicy === 'fail-closed') {
          return {
            decision: 'deny',
            reason: GENERIC_REASON,
            synthetic: true,
            interrupted: false,
            eventId: event.id,
            audit,
          };
        }
      } else if (verdict.deny !== undefined) {
        audit.push({ ...entry, outcome: 'deny', synthetic: false });
        return {
          decision: 'deny',
          reason: verdict.deny,
          synthetic: false,
          interrupted: false,
          eventId: event.id,
          audit,
        };
      } else {
        audit.push({ ...entry, outcome: 'no-effect' });
      }
    }
  }
  return { decision: 'continue', synthetic: false, interrupted: false, eventId: event.id, audit };
}

// ---- the driver protocol: one JSON-RPC object per line on stdin/stdout ------------------------

class RpcError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const methods = {
  initialize: () => ({
    implementation: { name: 'minimal-example-harness', version: '0.0.1' },
    protocolVersions: ['draft'],
    bindings: ['stdio'],
    features: {
      retries: false,
      budget: false,
      cancel: false,
      close: true,
      observe: false,
      stdioPerEvent: true,
    },
  }),
  configure: ({ registration, retries }) => {
    if (retries) throw new RpcError(-32602, 'params.retries is not supported by this harness');
    const issues = checkRegistration(registration);
    if (issues.length > 0) return { accepted: false, issues };
    hooks = registration.hooks;
    closed = false;
    return { accepted: true };
  },
  invoke: (params) => {
    if (closed) throw new RpcError(-32012, 'The harness is closed.');
    if (!hooks) throw new RpcError(-32011, 'No harness is configured; call configure first.');
    if (params.budgetMs !== undefined || params.cancelAfterMs !== undefined) {
      throw new RpcError(-32602, 'budgets and cancellation are not supported by this harness');
    }
    return raiseToolBefore(params.event ?? {});
  },
  close: () => {
    closed = true;
    closes += 1;
    for (const child of children) child.kill('SIGKILL');
    return {};
  },
};

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', async (line) => {
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    return send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  }
  const method = methods[request.method];
  if (!method)
    return send({
      jsonrpc: '2.0',
      id: request.id ?? null,
      error: { code: -32601, message: 'Method not found' },
    });
  try {
    send({ jsonrpc: '2.0', id: request.id, result: await method(request.params ?? {}) });
  } catch (error) {
    const code = error instanceof RpcError ? error.code : -32013;
    send({ jsonrpc: '2.0', id: request.id, error: { code, message: error.message } });
  }
});
process.on('SIGTERM', () => {
  for (const child of children) child.kill('SIGKILL');
  process.exit(0);
});
