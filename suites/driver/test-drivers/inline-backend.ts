import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The scripted stdio backend of the reference harness's tests, steered by the tool input's `mode`
 * (`{mode: 'deny', reason}` denies, `{mode: 'exit-1'}` exits without a reply, `{mode: 'hang'}`
 * never answers nor exits, anything else gets no effect), with its own delivery and PID logs.
 */
const SCRIPTED_BACKEND = fileURLToPath(
  new URL('../../../reference-harness/test-backends/harness-scripted-backend.mjs', import.meta.url),
);

/** The backend script, its delivery log, and a registration that points at it. */
export interface InlineBackend {
  script: string;
  logFile: string;
  /** Every line the backend received so far, parsed. */
  received(): Array<{ method?: string; id?: string; params?: { event?: { id?: string } } }>;
  /** PIDs of every backend process started so far. */
  pids(): number[];
  registration(options?: {
    lifecycle?: 'persistent' | 'per_event';
    failurePolicy?: 'fail-open' | 'fail-closed';
    timeoutMs?: number;
  }): object;
  remove(): void;
}

function nonEmptyLines(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
}

/** Makes fresh logs for the backend in a temporary directory. */
export function writeInlineBackend(): InlineBackend {
  const dir = mkdtempSync(join(tmpdir(), 'ahp-driver-backend-'));
  const logFile = join(dir, 'received.ndjson');
  const pidFile = join(dir, 'pids.txt');
  writeFileSync(logFile, '');
  writeFileSync(pidFile, '');
  return {
    script: SCRIPTED_BACKEND,
    logFile,
    received: () =>
      nonEmptyLines(logFile).map((l) => JSON.parse(l) as ReturnType<InlineBackend['received']>[number]),
    pids: () => nonEmptyLines(pidFile).map(Number),
    registration: ({ lifecycle = 'persistent', failurePolicy = 'fail-closed', timeoutMs = 5_000 } = {}) => ({
      protocolVersion: 'draft',
      hooks: [
        {
          id: 'com.example.inline',
          transport: {
            type: 'stdio',
            command: process.execPath,
            args: [SCRIPTED_BACKEND, `record=${logFile}`, `pid-log=${pidFile}`],
            lifecycle,
          },
          subscriptions: [
            {
              events: ['tool.before'],
              mode: 'intercept',
              timeoutMs,
              failurePolicy,
              content: { default: 'body' },
            },
          ],
        },
      ],
    }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
