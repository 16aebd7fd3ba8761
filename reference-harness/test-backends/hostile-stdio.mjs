// A hostile persistent stdio backend for scripts/robustness.ts. Each request carries its own
// script in params.event.tool.input.script: the exact bytes to write to stdout, in chunks with
// pauses, then `stay` (keep reading requests) or `exit`. Requests run one after another. Progress
// goes to a loopback control socket (argv: --control <port>) as JSON lines: hello (with the pid),
// got and done (per request id), so the driver knows when a script has finished writing.
import { connect } from 'node:net';

const port = Number(process.argv[process.argv.indexOf('--control') + 1]);
const control = connect(port, '127.0.0.1');
control.on('error', () => process.exit(3));
const tell = (message) => control.write(`${JSON.stringify({ pid: process.pid, ...message })}\n`);
tell({ hello: true });

const pause = (hop) =>
  hop < 0
    ? Promise.resolve()
    : new Promise((resolve) => (hop === 0 ? setImmediate(resolve) : setTimeout(resolve, hop)));
const bytesOf = (pieces) =>
  Buffer.concat(
    pieces.map((p) => (p.b64 === undefined ? Buffer.alloc(p.size, p.fill) : Buffer.from(p.b64, 'base64'))),
  );
const write = (bytes) => new Promise((resolve) => process.stdout.write(bytes, () => resolve()));

async function run(line) {
  const request = JSON.parse(line);
  const id = request.id;
  const script = request.params?.event?.tool?.input?.script ?? { chunks: [], end: 'stay' };
  tell({ got: id });
  for (const chunk of script.chunks) {
    await pause(chunk.hop);
    await write(bytesOf(chunk.pieces));
  }
  tell({ done: id });
  if (script.end === 'exit') {
    // Let the control line leave before the process does.
    control.end(() => process.exit(0));
    await new Promise(() => undefined);
  }
}

let queue = Promise.resolve();
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text) => {
  pending += text;
  for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    queue = queue.then(() => run(line));
  }
});
process.stdin.on('end', () => queue.then(() => process.exit(0)));
