// The benchmark's stdio backend: answers every request line with a no-effect `[]` reply carrying
// the request's id. Both the harness run and the raw baseline spawn this same program, so the
// backend's own cost cancels out of their ratio. A hand-rolled splitter keeps that cost small.
const NEWLINE = 0x0a;
let pending = [];

function answer(line) {
  const { id } = JSON.parse(line.toString('utf8'));
  const reply = { jsonrpc: '2.0', id, result: { protocolVersion: 'draft', effects: [] } };
  process.stdout.write(`${JSON.stringify(reply)}\n`);
}

process.stdin.on('data', (chunk) => {
  let start = 0;
  for (;;) {
    const nl = chunk.indexOf(NEWLINE, start);
    if (nl === -1) break;
    const piece = chunk.subarray(start, nl);
    const line = pending.length === 0 ? piece : Buffer.concat([...pending, piece]);
    pending = [];
    answer(line);
    start = nl + 1;
  }
  if (start < chunk.length) pending.push(chunk.subarray(start));
});
process.stdin.on('end', () => process.exit(0));
