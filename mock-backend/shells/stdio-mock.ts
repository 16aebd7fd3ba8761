/**
 * Wires a stdio mock process to where its decisions come from, then runs it: a control server
 * elsewhere (`--control-url`), or a scenario of its own (`--scenario`), optionally with a control
 * server it hosts (`--control-port`). The local path is imported lazily so that the control path,
 * the one per_event harnesses spawn per event, loads neither zod nor the engine.
 */
import { resolve } from 'node:path';
import { readFile } from 'node:fs/promises';
import type { Clock } from '../../protocol/clock.js';
import { controlClient } from '../control/control-client.js';
import { remoteLink } from '../control/remote-link.js';
import { preciseClock } from './precise-clock.js';
import { runStdioMock, type StdioHost, type StdioLink } from './stdio-shell.js';

/** Where a stdio mock gets its scenario and engine state. */
export type StdioMockSource =
  | { kind: 'control'; url: string }
  /** A file (relative to `cwd`) or a built-in name; `controlPort` hosts a control server in this process. */
  | { kind: 'scenario'; ref: string; cwd?: string; controlPort?: number };

/** The outcome of wiring: the mock runs (with the URL of a hosted control server), or one sentence why not. */
export type StdioMockStart = { ok: true; controlUrl?: string } | { ok: false; message: string };

/** Wires and starts a stdio mock on `host`. The process then ends through the host, never by returning. */
export async function startStdioMock(
  host: StdioHost,
  source: StdioMockSource,
  options: { clock?: Clock } = {},
): Promise<StdioMockStart> {
  const clock = options.clock ?? preciseClock;
  if (source.kind === 'control') {
    await runStdioMock(host, remoteLink(controlClient(source.url), clock), { clock });
    return { ok: true };
  }
  const local = await localSource(source, clock);
  if (!local.ok) return local;
  await runStdioMock(host, local.link, { clock });
  return local.controlUrl === undefined ? { ok: true } : { ok: true, controlUrl: local.controlUrl };
}

async function localSource(
  source: Extract<StdioMockSource, { kind: 'scenario' }>,
  clock: Clock,
): Promise<{ ok: true; link: StdioLink; controlUrl?: string } | { ok: false; message: string }> {
  const [{ loadScenario }, { MockCore }, { localLink }] = await Promise.all([
    import('../scenario.js'),
    import('./mock-core.js'),
    import('./local-link.js'),
  ]);
  const cwd = source.cwd ?? '.';
  const loaded = await loadScenario(source.ref, (p) => readFile(resolve(cwd, p), 'utf8'));
  if (!loaded.ok) return { ok: false, message: loaded.error.message };
  const core = new MockCore(loaded.scenario, { clock });
  if (source.controlPort === undefined) return { ok: true, link: localLink(core) };

  const [{ startControlServer }, { ProcessRegistry }, { controlScenarioValidator }] = await Promise.all([
    import('../control/control-server.js'),
    import('../control/process-registry.js'),
    import('../control/scenario-check.js'),
  ]);
  const registry = new ProcessRegistry();
  let server;
  try {
    server = await startControlServer(core, registry, {
      port: source.controlPort,
      validate: controlScenarioValidator,
    });
  } catch (e) {
    return {
      ok: false,
      message: `the control port ${source.controlPort} cannot be used (${(e as Error).message}); choose another --control-port or 0.`,
    };
  }
  const link = localLink(core, {
    started: (pid) => registry.started(pid, clock.wallNow()),
    exited: (pid, report) => registry.exited(pid, report, clock.wallNow()),
    stdinEnded: (pid, report) => registry.stdinEnded(pid, report),
  });
  return { ok: true, link, controlUrl: server.url };
}
