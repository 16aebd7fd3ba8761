// A hostile HTTP backend for scripts/robustness.ts. Each POST carries its own script in
// params.event.tool.input.script: the status, headers and body bytes in chunks with pauses, then
// how the response ends: `end`, `destroy` (the socket is cut) or `hang` (never finished). It
// announces {"event":"ready","port":N} on stdout and exits when stdin closes.
import { createServer } from 'node:http';

const pause = (hop) =>
  hop < 0
    ? Promise.resolve()
    : new Promise((resolve) => (hop === 0 ? setImmediate(resolve) : setTimeout(resolve, hop)));
const bytesOf = (pieces) =>
  Buffer.concat(
    pieces.map((p) => (p.b64 === undefined ? Buffer.alloc(p.size, p.fill) : Buffer.from(p.b64, 'base64'))),
  );

async function respond(req, res, body) {
  let gone = false;
  res.on('close', () => (gone = true));
  const request = JSON.parse(body);
  const script = request.params?.event?.tool?.input?.script;
  const headers = { ...script.headers };
  const chunks = script.chunks.length > 0 ? script.chunks : [{ hop: script.firstHop ?? 0, pieces: [] }];
  for (let i = 0; i < chunks.length && !gone; i++) {
    await pause(chunks[i].hop);
    if (gone) return;
    if (i === 0) res.writeHead(script.status, headers);
    const bytes = bytesOf(chunks[i].pieces);
    if (bytes.length > 0) res.write(bytes);
  }
  if (gone) return;
  if (script.end === 'end') res.end();
  else if (script.end === 'destroy') res.socket?.destroy();
  // `hang`: leave the response open until the client gives up.
}

const server = createServer((req, res) => {
  const parts = [];
  req.on('data', (c) => parts.push(c));
  req.on('end', () => {
    respond(req, res, Buffer.concat(parts).toString('utf8')).catch(() => res.socket?.destroy());
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ event: 'ready', port: server.address().port })}\n`);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
