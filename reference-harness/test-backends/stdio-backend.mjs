// A deliberately misbehaving stdio backend for the transport tests.
// Usage: node stdio-backend.mjs <mode> [banner] [ignore-sigterm] [delay=<ms>] [record=<file>]
// A request may override the mode with params.mode (and the delay with params.delayMs), so a
// replacement process of a persistent transport behaves normally unless the next request asks.
import { appendFileSync, closeSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [argvMode = 'echo', ...flags] = process.argv.slice(2);
const flag = (name) => flags.find((f) => f === name || f.startsWith(`${name}=`));
const flagValue = (name) => flag(name)?.split('=').slice(1).join('=');

const out = (text) => process.stdout.write(text);
// Keeps the process alive after stdin ends (per-event hang).
const keepAlive = () => setInterval(() => undefined, 1 << 30);

// The worst case: ignore SIGTERM and stay alive after stdin closes, so only SIGKILL ends it.
if (flag('ignore-sigterm')) {
  process.on('SIGTERM', () => undefined);
  keepAlive();
}
if (flag('banner')) out('policy backend v1 starting\n');

const resultFor = (mode) => {
  if (mode === 'deny')
    return { protocolVersion: 'draft', effects: [{ type: 'deny', reason: 'test policy' }] };
  if (mode === 'env') return { env: Object.keys(process.env).sort() };
  if (mode === 'huge') return { protocolVersion: 'draft', effects: [], pad: 'x'.repeat(8192) };
  return { protocolVersion: 'draft', effects: [] };
};
const reply = (id, mode) => JSON.stringify({ jsonrpc: '2.0', id, result: resultFor(mode) });

function handle(line) {
  const record = flagValue('record');
  if (record) appendFileSync(record, `${line}\n`);
  const msg = JSON.parse(line);
  const mode = msg.params?.mode ?? argvMode;
  if (!('id' in msg)) {
    if (mode === 'reply-to-notify') out(`${JSON.stringify({ jsonrpc: '2.0', id: null, result: {} })}\n`);
    if (mode === 'hang') keepAlive();
    return;
  }
  const id = msg.id;
  switch (mode) {
    case 'garbage':
      return out('this is not json\n');
    case 'invalid-utf8': {
      // A three-byte sequence cut after two bytes, then a byte that cannot continue it.
      const head = Buffer.concat([
        Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":"`),
        Buffer.from([0xe2, 0x82]),
      ]);
      out(head);
      setTimeout(() => out(Buffer.concat([Buffer.from([0x28]), Buffer.from('"}\n')])), 5);
      return;
    }
    case 'multi-line':
      return out(`${JSON.stringify(JSON.parse(reply(id, 'echo')), null, 2)}\n`);
    case 'no-newline':
      out(reply(id, 'echo'));
      return process.exit(0);
    case 'two-replies':
      return out(`${reply(id, 'echo')}\n${reply(id, 'echo')}\n`);
    case 'reply-then-noise':
      out(`${reply(id, 'echo')}\n`);
      setTimeout(() => out('log: idle noise\n'), 20);
      return;
    case 'exit-0':
      return process.exit(0);
    case 'exit-1':
      process.stderr.write('backend failed: boom\n');
      return process.exit(1);
    case 'exit-1-after-reply':
      out(`${reply(id, 'echo')}\n`);
      return process.exit(1);
    case 'signal':
      return process.kill(process.pid, 'SIGKILL');
    case 'close-stdout':
      closeSync(1);
      keepAlive();
      return;
    case 'hang':
      keepAlive();
      return;
    case 'slow': {
      const ms = Number(msg.params?.delayMs ?? flagValue('delay') ?? 500);
      setTimeout(() => out(`${reply(id, 'echo')}\n`), ms);
      return;
    }
    default:
      return out(`${reply(id, mode)}\n`);
  }
}

createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  if (line.trim() !== '') handle(line);
});
