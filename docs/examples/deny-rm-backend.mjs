// A minimal persistent stdio AHP backend: one JSON-RPC object per line in, one per line out.
import { createInterface } from 'node:readline';

for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  if (request.id === undefined) continue; // a notification: never answered
  const command = String(request.params?.event?.tool?.input?.command ?? '');
  const effects = command.includes('rm -rf')
    ? [{ type: 'deny', reason: 'Recursive deletes need a human.' }]
    : [];
  process.stdout.write(
    JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { protocolVersion: 'draft', effects } }) + '\n',
  );
}
