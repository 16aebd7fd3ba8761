// Helpers for the backend tests that need real example backends: paths, and a loopback HTTP
// example started and stopped by the test.
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { BACKEND_MARGINS } from './margins.js';

/** The example backends of `fixtures/backends/`, by name (`correct-backend`, `twins/banner`...). */
export function exampleBackend(name: string): string {
  return fileURLToPath(new URL(`../../fixtures/backends/${name}.mjs`, import.meta.url));
}

/** A running HTTP example: its announced URL and how to stop it. */
export interface HttpExample {
  url: string;
  stop(): Promise<void>;
}

/** Starts an example with `--http` and waits for its one `listening` line (no fixed port, no log scraping). */
export async function startHttpExample(
  name: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<HttpExample> {
  const sub = execa(process.execPath, [exampleBackend(name), '--http', ...args], {
    env,
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    forceKillAfterDelay: BACKEND_MARGINS.killGraceMs,
  });
  const lines = sub.iterable({ from: 'stdout' })[Symbol.asyncIterator]();
  const first = await Promise.race([
    lines.next(),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${name} did not announce its URL`)), BACKEND_MARGINS.spawnMs),
    ),
  ]);
  const url = (JSON.parse(String(first.value)) as { url: string }).url;
  return {
    url,
    async stop() {
      sub.kill('SIGTERM');
      await sub;
    },
  };
}
