// A minimal persistent stdio AHP backend: one JSON-RPC object per line in, one per line out.
// It denies recursive forced deletes and answers every other tool.before with no effects; what
// it cannot process gets the error the draft defines for it.
import { createInterface } from 'node:readline';

const reply = (id, body) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, ...body })}\n`);
const error = (id, code, message, data) => reply(id, { error: { code, message, ...(data ? { data } : {}) } });

function answer(request) {
  const { id, method, params } = request;
  if (method !== 'hooks/intercept') return error(id, -32601, 'Method not found');
  if (params?.protocolVersion !== 'draft') {
    return error(id, -32001, 'Unsupported AHP protocol version', { supported: ['draft'] });
  }
  if (params.event?.type !== 'tool.before') {
    return error(id, -32002, 'Unsupported event', { supported: ['tool.before'] });
  }
  const command = String(params.event.tool?.input?.command ?? '');
  const effects = command.includes('rm -rf')
    ? [{ type: 'deny', reason: 'Recursive deletes need a human.' }]
    : [];
  return reply(id, { result: { protocolVersion: 'draft', effects } });
}

for await (const line of createInterface({ input: process.stdin })) {
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    error(null, -32700, 'Parse error');
    continue;
  }
  if (typeof request?.method !== 'string') {
    error(null, -32600, 'Invalid Request'); // JSON, but no JSON-RPC request: no id to trust
    continue;
  }
  if (request.id === undefined) continue; // a notification: never answered, not even with an error
  answer(request);
}
