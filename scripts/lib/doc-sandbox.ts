/**
 * Runs documented blocks as a reader would: in an empty temporary folder of their page, where
 * `npx ahp-conformance` (and `npx tsx`, and `import 'ahp-conformance/...'`) resolve to this
 * checkout, as in a project that installed the package, and npm never reaches a registry.
 */
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHELL_LANGS, where, type DocBlock } from './doc-blocks.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The pages whose blocks are run: the README, every docs/ page, and the two folder READMEs. */
export function docPages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs, 'mock-backend/README.md', 'suites/harness/README.md'];
}

/** Bounds on one block; they bound failures only, a passing block never waits for them. */
export const DOC_MARGINS = {
  /** An ordinary block (a CLI start through npx on a loaded machine, a short run). */
  blockMs: 120_000,
  /** A full suite run (`slow`) on a busy 2-core CI machine. */
  slowBlockMs: 900_000,
  /** A serving block's ready line. */
  readyMs: 60_000,
  /** After SIGTERM, everything the block started must be gone within this. */
  goneMs: 15_000,
} as const;

export interface Sandbox {
  dir: string;
  env: NodeJS.ProcessEnv;
}

/** A fresh folder with this checkout installed as `ahp-conformance`, and the environment to run in. */
export function createSandbox(page: string): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), `ahp-doc-${basename(page, '.md')}-`));
  const bin = join(dir, 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', 'ahp-conformance'), 'dir');
  // Every bin the package declares, as npm links them on install.
  const { bin: bins } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
  };
  for (const [name, path] of Object.entries(bins)) symlinkSync(join(ROOT, path), join(bin, name));
  symlinkSync(join(ROOT, 'node_modules', '.bin', 'tsx'), join(bin, 'tsx'));
  const env: NodeJS.ProcessEnv = {};
  // The test runner's own variables would leak into the suite the CLI starts.
  for (const [k, v] of Object.entries(process.env)) if (!/^(VITEST|TEST$|NODE_ENV$)/.test(k)) env[k] = v;
  Object.assign(env, {
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    NO_COLOR: '1',
  });
  return { dir, env };
}

function tail(text: string, max = 1500): string {
  const t = text.trim();
  return t.length > max ? `...${t.slice(-max)}` : t;
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  problem?: string;
}

/** Runs a shell block to its end (stdin closed at once), killing its process group at the bound. */
function runToEnd(body: string, sandbox: Sandbox, timeoutMs: number): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', body], {
      cwd: sandbox.dir,
      env: sandbox.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.end();
    let stdout = '';
    let stderr = '';
    let problem: string | undefined;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      problem = `still running after ${timeoutMs / 1000} s (killed); mark it serve="<ready text>" if it runs until stopped`;
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ...(problem ? { problem } : {}) });
    });
  });
}

/**
 * Runs a block that serves until stopped, as a script does with `cmd & ... kill $!`: the command
 * is exec'd (so the SIGTERM reaches it, not a shell around it), stopped once its ready text is on
 * stdout, and then nothing of its process group may be left.
 */
function runServing(body: string, ready: string, sandbox: Sandbox): Promise<Ran> {
  const command = body
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.trim().startsWith('#'))
    .join(' ');
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', `exec ${command}`], {
      cwd: sandbox.dir,
      env: sandbox.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pgid = child.pid as number;
    let stdout = '';
    let stderr = '';
    let problem: string | undefined;
    let stopped = false;
    const stop = async (why?: string): Promise<void> => {
      if (stopped) return;
      stopped = true;
      if (why) problem = why;
      child.kill('SIGTERM');
      const deadline = Date.now() + DOC_MARGINS.goneMs;
      while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      if (groupAlive(pgid)) {
        problem ??= `processes it started were still running ${DOC_MARGINS.goneMs / 1000} s after SIGTERM (killed now)`;
        process.kill(-pgid, 'SIGKILL');
      }
      resolve({
        code: child.exitCode,
        signal: child.signalCode,
        stdout,
        stderr,
        ...(problem ? { problem } : {}),
      });
    };
    const timer = setTimeout(
      () => void stop(`no "${ready}" on stdout within ${DOC_MARGINS.readyMs / 1000} s`),
      DOC_MARGINS.readyMs,
    );
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (stdout.includes(ready)) {
        clearTimeout(timer);
        void stop();
      }
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', () => {
      if (!stopped) {
        clearTimeout(timer);
        void stop(`ended before "${ready}" appeared on stdout`);
      }
    });
  });
}

/**
 * Carries out one marked block in its page's sandbox and returns what did not match the marker,
 * each problem one message naming the page, line and command, expected and actual.
 */
export async function runBlock(
  block: DocBlock,
  sandbox: Sandbox,
  options: { slow: boolean },
): Promise<string[]> {
  const marker = block.marker;
  if (!marker) return [`${where(block)}: no doc-test marker`];
  for (const file of marker.copy) {
    const from = join(ROOT, file);
    if (!existsSync(from)) return [`${where(block)}: copy="${file}" names no file of the repository`];
    copyFileSync(from, join(sandbox.dir, basename(file)));
  }
  if (marker.file !== undefined) {
    mkdirSync(dirname(join(sandbox.dir, marker.file)), { recursive: true });
    writeFileSync(join(sandbox.dir, marker.file), block.body);
    return [];
  }
  if (!SHELL_LANGS.has(block.lang))
    return [`${where(block)}: a ${block.lang} block needs file="<name>" or skip="<reason>"`];
  const ran =
    marker.serve !== undefined
      ? await runServing(block.body, marker.serve, sandbox)
      : await runToEnd(block.body, sandbox, options.slow ? DOC_MARGINS.slowBlockMs : DOC_MARGINS.blockMs);
  // Kept beside the block's files, for whoever reads a failure.
  writeFileSync(join(sandbox.dir, `.doc-test-line-${block.line}.stdout`), ran.stdout);
  writeFileSync(join(sandbox.dir, `.doc-test-line-${block.line}.stderr`), ran.stderr);
  const problems: string[] = [];
  if (ran.problem) problems.push(ran.problem);
  if (marker.serve === undefined && !ran.problem && ran.code !== marker.exit) {
    problems.push(`exit ${ran.code ?? `by ${ran.signal}`}, expected exit=${marker.exit}`);
  }
  if (marker.stdout !== undefined && !ran.stdout.includes(marker.stdout)) {
    problems.push(`stdout lacks stdout="${marker.stdout}"`);
  }
  if (marker.stderr !== undefined && !ran.stderr.includes(marker.stderr)) {
    problems.push(`stderr lacks stderr="${marker.stderr}"`);
  }
  if (marker.creates !== undefined && !existsSync(join(sandbox.dir, marker.creates))) {
    problems.push(`it did not write creates="${marker.creates}"`);
  }
  if (problems.length === 0) return [];
  return [
    `${where(block)}, run in ${sandbox.dir}, against its marker at ${block.page}:${block.markerLine}:\n  ${problems.join('\n  ')}\n  stdout: ${tail(ran.stdout) || '(empty)'}\n  stderr: ${tail(ran.stderr) || '(empty)'}`,
  ];
}
