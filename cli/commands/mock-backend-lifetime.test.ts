// How long a mock-backend process lives, seen from real process trees: a hanging stdio exchange
// keeps it up until SIGTERM, and a mock whose starter is gone does not serve on as an orphan.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OWNER_POLL_MS } from '../../mock-backend/shells/owner-watch.js';
import {
  MOCK_PROCESS_MARGINS,
  SPAWN_TEST_TIMEOUT_MS,
} from '../../mock-backend/shells/test-support/stdio-process.js';
import { processAlive } from '../../protocol/process-alive.js';

const BIN = fileURLToPath(new URL('../../bin/ahp-conformance.mjs', import.meta.url));
const request = (id: string) =>
  `${JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'hooks/intercept',
    params: { protocolVersion: 'draft', event: { id, type: 'tool.before', tool: { name: 'Bash' } } },
  })}\n`;

/** Longer than the 0.4 s after EOF at which a hanging mock used to die, and than several polls. */
const STAYS_UP_MS = 2_000;
/** An orphan must be gone within a few parent polls plus its close. */
const ORPHAN_END_MS = 10 * OWNER_POLL_MS + 5_000;

const ended = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

function untilOutput(child: ChildProcess, stream: 'stdout' | 'stderr', fragment: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () => reject(new Error(`no "${fragment}" on ${stream}: ${text}`)),
      MOCK_PROCESS_MARGINS.spawnMs,
    );
    child[stream]?.on('data', (c: Buffer) => {
      text += c.toString();
      if (text.includes(fragment)) {
        clearTimeout(timer);
        resolve(text);
      }
    });
  });
}

async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!processAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !processAlive(pid);
}

describe('mock-backend process lifetime', { timeout: SPAWN_TEST_TIMEOUT_MS }, () => {
  it('--stdio --scenario hang stays up after stdin EOF until SIGTERM, then exits 0', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'mock-backend', '--stdio', '--scenario', 'hang', '--control-port', '0'],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    const end = ended(child);
    await untilOutput(child, 'stderr', 'control-listening');
    child.stdin?.end(request('e1'));
    const early = await Promise.race([end, new Promise((r) => setTimeout(() => r('up'), STAYS_UP_MS))]);
    expect(early).toBe('up');
    child.kill('SIGTERM');
    expect(await end).toEqual({ code: 0, signal: null });
  });

  it('--http ends when the shell that started it is killed (no orphan left serving)', async () => {
    // `; :` keeps sh from exec-ing node, so node has a parent of its own to lose, as under npx.
    const shell = spawn(
      'sh',
      ['-c', `"${process.execPath}" "${BIN}" mock-backend --http --scenario hang & echo $!; wait; :`],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const out = await untilOutput(shell, 'stdout', '"listening"');
    const pid = Number(out.split('\n')[0]);
    expect(processAlive(pid)).toBe(true);
    shell.kill('SIGKILL');
    const gone = await goneWithin(pid, ORPHAN_END_MS);
    if (!gone) process.kill(pid, 'SIGKILL');
    expect(gone).toBe(true);
  });

  it('--http ends with exit 0 when the pipe on its stdin closes', async () => {
    const child = spawn(process.execPath, [BIN, 'mock-backend', '--http', '--scenario', 'deny'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const end = ended(child);
    await untilOutput(child, 'stdout', '"listening"');
    child.stdin?.end();
    expect(await end).toEqual({ code: 0, signal: null });
  });
});
