// The benchmark's HTTP backend: a node:http server on a loopback port that answers every POST
// with a no-effect `[]` reply carrying the request's id. It announces itself with one line,
// {"event":"ready","port":N}, and exits when stdin closes (its parent went away).
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const body = JSON.stringify({ jsonrpc: '2.0', id, result: { protocolVersion: 'draft', effects: [] } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ event: 'ready', port: server.address().port })}\n`);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
