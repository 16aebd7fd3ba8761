import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../protocol/clock.js';
import { stdioEndpoint } from './endpoint.js';
import { BACKEND_MARGINS, preflightBound } from './margins.js';
import { preflightBackend, unreachableMessage } from './preflight.js';
import type { BackendTarget } from './target.js';
import { exampleBackend, startHttpExample } from './test-support.js';

const options = (boundMs: number) => ({
  clock: systemClock,
  boundMs,
  boundSource: 'twice --deadline-ms 500',
  killGraceMs: BACKEND_MARGINS.killGraceMs,
  startupWatchMs: BACKEND_MARGINS.spawnMs,
});

function stdio(command: string, args: string[]): BackendTarget {
  return {
    endpoint: stdioEndpoint({ command, args, lifecycle: 'persistent', cwd: process.cwd(), env: process.env }),
    deadlineMs: 5_000,
  };
}

function http(url: string): BackendTarget {
  return { endpoint: { kind: 'http', url }, deadlineMs: 5_000 };
}

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('pre-flight', () => {
  it('lets through a backend that answers, conforming or not', async () => {
    const bound = BACKEND_MARGINS.spawnMs * 2;
    expect(
      await preflightBackend(stdio(process.execPath, [exampleBackend('correct-backend')]), options(bound)),
    ).toMatchObject({ ok: true });
    expect(
      await preflightBackend(stdio(process.execPath, [exampleBackend('twins/banner')]), options(bound)),
    ).toMatchObject({ ok: true });
  });

  it('says in one sentence that a command cannot be started or ends by itself, naming the whole command', async () => {
    const missing = await preflightBackend(
      stdio('ahp-no-such-backend-command', []),
      options(BACKEND_MARGINS.spawnMs),
    );
    expect(missing).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^could not start "ahp-no-such-backend-command" .*ENOENT.*; check the command after -- and your PATH\.$/,
      ),
    });
    const exits = await preflightBackend(
      stdio(process.execPath, ['-e', 'console.error("no config"); process.exit(4)']),
      options(BACKEND_MARGINS.spawnMs * 2),
    );
    expect(exits).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^the backend command `.*node -e "console\.error\(\\"no config\\"\); process\.exit\(4\)"` exited with code 4 without being sent anything \(stderr: "no config"\), so it cannot be exercised; run it by hand to see why\.$/,
      ),
    });
  });

  it('lets through a backend that starts and dies on the request: that is judged, not refused', async () => {
    const crash = stdio(process.execPath, [exampleBackend('twins/crash-on-request')]);
    expect(await preflightBackend(crash, options(BACKEND_MARGINS.spawnMs * 2))).toMatchObject({ ok: true });
  });

  it('gives up on a backend that never answers at the bound, not later', async () => {
    const bound = 1_000;
    const started = performance.now();
    const silent = await preflightBackend(
      stdio(process.execPath, ['-e', 'setInterval(() => {}, 1000)']),
      options(bound),
    );
    const elapsed = performance.now() - started;
    expect(silent).toEqual({
      ok: false,
      message: expect.stringContaining(
        `did not answer a tool.before request within ${bound} ms (the pre-flight bound: twice --deadline-ms 500)`,
      ),
    });
    // A persistent backend may be one that reads its whole stdin first: the sentence says what to do.
    expect(!silent.ok && silent.message).toMatch(
      /answers only once its stdin ends .*: add --lifecycle per_event\), and give a slower start more time with --timeout-scale\.$/,
    );
    // The bound, plus reaping the process (SIGTERM is enough here) and a spawn's worth of slack.
    expect(elapsed).toBeLessThan(bound + BACKEND_MARGINS.killGraceMs + BACKEND_MARGINS.spawnMs);
  });

  it('names an unreachable URL and a backend that wants credentials', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/`;
    expect(await preflightBackend(http(url), options(BACKEND_MARGINS.spawnMs))).toEqual({
      ok: false,
      message: expect.stringMatching(
        new RegExp(`^could not connect to ${url} .*; start the backend or fix --url\\.$`),
      ),
    });
    const guarded = await startHttpExample('correct-backend', ['--token-env', 'AHP_PREFLIGHT_TOKEN'], {
      AHP_PREFLIGHT_TOKEN: 't0k',
    });
    try {
      expect(await preflightBackend(http(guarded.url), options(BACKEND_MARGINS.spawnMs))).toEqual({
        ok: false,
        message: expect.stringContaining(
          'requires credentials (HTTP 401); put the token in an environment variable and pass --bearer-token-env NAME.',
        ),
      });
      const withToken: BackendTarget = {
        endpoint: { kind: 'http', url: guarded.url, bearerTokenEnv: 'T', bearerToken: 't0k' },
        deadlineMs: 5_000,
      };
      expect(await preflightBackend(withToken, options(BACKEND_MARGINS.spawnMs))).toMatchObject({ ok: true });
    } finally {
      await guarded.stop();
    }
  });

  it('treats a wrong URL path as unreachable but any other answer as something to judge', () => {
    const endpoint = { kind: 'http' as const, url: 'http://127.0.0.1:1/x' };
    const failure = (code: string, detail: string) => ({
      failureClass: 'http-status' as const,
      code,
      detail,
    });
    expect(unreachableMessage(endpoint, failure('http.status', 'HTTP 404'), false, 1)).toMatch(
      /check that --url is the backend's AHP endpoint/,
    );
    expect(unreachableMessage(endpoint, failure('http.status', 'HTTP 500'), false, 1)).toBeUndefined();
    expect(unreachableMessage(endpoint, failure('http.media-type', 'text/plain'), false, 1)).toBeUndefined();
    expect(unreachableMessage(endpoint, failure('deadline', 'x'), true, 1)).toBeUndefined();
  });
});

describe('the pre-flight bound', () => {
  it("covers a persistent process's warm-up, so a start the cases wait out is not refused", () => {
    const persistent = { kind: 'stdio', lifecycle: 'persistent' } as const;
    expect(preflightBound(persistent, 2_000, 1)).toEqual({
      boundMs: 2_000 + BACKEND_MARGINS.warmUpMs,
      boundSource: `--deadline-ms 2000 plus the ${BACKEND_MARGINS.warmUpMs} ms a process is given to start, at --timeout-scale 1`,
    });
    expect(preflightBound(persistent, 2_000, 2).boundMs).toBe(2_000 + 2 * BACKEND_MARGINS.warmUpMs);
  });

  it('is twice the deadline, at least its floor, where no process warms up', () => {
    expect(preflightBound({ kind: 'http' }, 2_000, 1)).toEqual({
      boundMs: BACKEND_MARGINS.preflightFloorMs,
      boundSource: `its floor of ${BACKEND_MARGINS.preflightFloorMs} ms at --timeout-scale 1`,
    });
    expect(preflightBound({ kind: 'stdio', lifecycle: 'per_event' }, 60_000, 1)).toEqual({
      boundMs: 120_000,
      boundSource: 'twice --deadline-ms 60000',
    });
  });
});
