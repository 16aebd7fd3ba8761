// A driver that misbehaves on purpose, one way per mode (argv[2]), for the client's tests.
// Plain Node, no dependencies: it must start fast and do exactly what the mode says.
import { createInterface } from 'node:readline';

const mode = process.argv[2] ?? 'good';
const send = (obj) => process.stdout.write(`${JSON.stringify(obj)}\n`);
const reply = (id, result) => send({ jsonrpc: '2.0', id, result });

const INIT = {
  implementation: { name: 'fake-driver', version: '0.0.1' },
  protocolVersions: ['draft'],
  bindings: ['stdio'],
  features: { retries: false, budget: false, cancel: false },
};
const INVOKED = { decision: 'continue', synthetic: false, interrupted: false, audit: [] };

if (mode === 'exit') {
  process.stderr.write('fatal: the fake driver refuses to run\n');
  process.exit(2);
}
if (mode === 'banner') process.stdout.write('Fake driver 1.0 starting up...\n');
if (mode === 'ignore-term') {
  process.on('SIGTERM', () => process.stderr.write('ignoring SIGTERM\n'));
  // Stays alive after stdin closes, so only SIGKILL ends it.
  setInterval(() => {}, 1000);
}

// An invoke asked to be held is answered only when the next request arrives, just before that one.
let held;
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  const msg = JSON.parse(line);
  if (mode === 'silent') return;
  if (mode === 'stall-after-init' && msg.method !== 'initialize') return;
  if (held !== undefined) {
    reply(held, { ...INVOKED, reason: 'late' });
    held = undefined;
  }
  if (msg.method === 'initialize') {
    if (mode === 'malformed-init')
      return reply(msg.id, { ...INIT, implementation: { name: 42, version: '1' } });
    if (mode === 'error-init')
      return send({ jsonrpc: '2.0', id: msg.id, error: { code: -32602, message: 'no' } });
    if (mode === 'unknown-id') return reply(msg.id + 1000, INIT);
    if (mode === 'bad-envelope') return send({ jsonrpc: '2.0', result: INIT });
    if (mode === 'old-version') return reply(msg.id, { ...INIT, protocolVersions: ['0.1'] });
    // These two stand for a complete driver that breaks: they announce a transport to be run on.
    const RUNNABLE = { ...INIT, features: { ...INIT.features, stdioPersistent: true, close: true } };
    if (mode === 'exit-after-init') {
      reply(msg.id, RUNNABLE);
      process.stderr.write('fake driver: initialized\nfatal: lost the harness after initialize\n');
      return setTimeout(() => process.exit(4), 50);
    }
    if (mode === 'stall-after-init') {
      process.stderr.write('fake driver: stalling after initialize\n');
      return reply(msg.id, RUNNABLE);
    }
    return reply(msg.id, INIT);
  }
  if (msg.method === 'configure') {
    if (mode === 'hang-configure') return;
    if (mode === 'error-configure') {
      return send({
        jsonrpc: '2.0',
        id: msg.id,
        error: { code: -32602, message: 'bad params', data: { field: 'retries' } },
      });
    }
    return reply(msg.id, { accepted: true });
  }
  if (msg.method === 'invoke') {
    const input = msg.params?.event?.tool?.input ?? {};
    if (mode === 'die-on-invoke') process.exit(7);
    if (mode === 'noise-later') return process.stdout.write('debug: invoking\n');
    if (mode === 'malformed-invoke') {
      return reply(msg.id, { ...INVOKED, audit: [{ backendId: 'com.example.b', outcome: 'allowed' }] });
    }
    if (input.hold === true) {
      held = msg.id;
      return;
    }
    return reply(msg.id, INVOKED);
  }
  if (msg.method === 'close') return reply(msg.id, {});
  send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'method not found' } });
});
