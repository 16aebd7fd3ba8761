// The reference harness as a library: one stdio backend, fail-closed, one tool.before, close.
// Run: npx tsx docs/examples/library-stdio-fail-closed.ts
import { fileURLToPath } from 'node:url';
import { createHarness } from '../../reference-harness/index.js';

// A tiny policy backend: denies `rm -rf`, has no objection otherwise (see fixtures/backends/).
const backend = fileURLToPath(new URL('./deny-rm-backend.mjs', import.meta.url));

const harness = createHarness({
  registration: {
    protocolVersion: 'draft',
    hooks: [
      {
        id: 'com.example.policy',
        transport: { type: 'stdio', command: process.execPath, args: [backend], lifecycle: 'persistent' },
        subscriptions: [
          {
            events: ['tool.before'],
            mode: 'intercept',
            timeoutMs: 1000,
            failurePolicy: 'fail-closed',
            content: { default: 'body' },
          },
        ],
      },
    ],
  },
  env: { PATH: process.env.PATH },
});

try {
  const result = await harness.invoke({
    session: { id: 'sess_1' },
    call: { id: 'call_1' },
    tool: { name: 'Bash', input: { command: 'rm -rf /' } },
  });
  // -> deny "Recursive deletes need a human." synthetic=false
  console.log(result.decision, JSON.stringify(result.reason), `synthetic=${result.synthetic}`);
} finally {
  await harness.close(); // reaps the backend process
}
