// A stdio AHP backend for the harness integration tests and the driver tests.
// Usage: node harness-scripted-backend.mjs [record=<file>] [pid-log=<file>] [ignore-sigterm]
// Behaviour comes from the intercepted tool input (params.event.tool.input.mode), so one
// persistent process can misbehave differently on every call the harness makes. `record` appends
// every line received; `pid-log` appends the PID of each process started, so that reaping shows.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const flags = process.argv.slice(2);
const flagValue = (name) => flags.find((f) => f.startsWith(`${name}=`))?.slice(name.length + 1);
const keepAlive = () => setInterval(() => undefined, 1 << 30);
const pidLog = flagValue('pid-log');
if (pidLog) appendFileSync(pidLog, `${process.pid}\n`);
if (flags.includes('ignore-sigterm')) {
  process.on('SIGTERM', () => undefined);
  keepAlive();
}

const write = (value) =>
  process.stdout.write(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
const result = (id, effects, protocolVersion = 'draft') => ({
  jsonrpc: '2.0',
  id,
  result: { protocolVersion, effects },
});

/** Counts calls per state file, so "fail the first N" works across per-event processes too. */
function nextCount(file) {
  let n = 0;
  try {
    n = Number(readFileSync(file, 'utf8')) || 0;
  } catch {
    // first call
  }
  writeFileSync(file, String(n + 1));
  return n + 1;
}

function handle(line) {
  const record = flagValue('record');
  if (record) appendFileSync(record, `${line}\n`);
  const msg = JSON.parse(line);
  if (!('id' in msg)) return; // notifications are only recorded
  const id = msg.id;
  const input = msg.params?.event?.tool?.input ?? {};
  switch (input.mode) {
    case 'deny':
      return write(result(id, [{ type: 'deny', reason: input.reason ?? 'Denied by the scripted backend.' }]));
    case 'hang':
      // Never answers and stays alive, even once its stdin ends (per_event ends it after the request).
      return keepAlive();
    case 'late':
      return setTimeout(() => write(result(id, [])), Number(input.delayMs ?? 500));
    case 'garbage':
      return write('policy backend ready');
    case 'id-mismatch':
      return write(result(`${id}-other`, []));
    case 'rpc-error':
      return write({
        jsonrpc: '2.0',
        id,
        error: { code: -32603, message: 'internal error at /srv/policy.js:12' },
      });
    case 'unsupported':
      return write({
        jsonrpc: '2.0',
        id,
        error: { code: -32001, message: 'unsupported', data: { supported: ['x'] } },
      });
    case 'missing-fields':
      return write({ jsonrpc: '2.0', id, result: { protocolVersion: 'draft' } });
    case 'invalid-effects':
      return write(result(id, [{ type: 'deny', reason: 'r' }, { type: 'bogus' }]));
    case 'exit-1':
      process.stderr.write('scripted failure\n');
      return process.exit(1);
    case 'fail-first':
      if (nextCount(input.stateFile) <= Number(input.failures ?? 1)) {
        return write({ jsonrpc: '2.0', id, error: { code: -32003, message: 'busy' } });
      }
      return write(result(id, []));
    default:
      return write(result(id, []));
  }
}

createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  if (line.trim() !== '') handle(line);
});
