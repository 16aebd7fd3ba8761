// The GitHub Action (action.yml) and the workflows the docs show: the action's inputs are the
// ones the docs use, every workflow parses as a GitHub workflow, and the action's run step
// (scripts/action-run.sh) runs a shard and a merge through the real CLI.
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  [key: string]: unknown;
}
interface Job {
  'runs-on'?: unknown;
  needs?: string | string[];
  steps?: Step[];
  strategy?: { matrix?: Record<string, unknown> };
}
interface Workflow {
  name?: string;
  on?: unknown;
  jobs?: Record<string, Job>;
}

const action = parse(read('action.yml')) as {
  inputs: Record<string, { description?: string; default?: string }>;
  runs: { using: string; steps: Step[] };
};
const INPUTS = Object.keys(action.inputs);

/** Every workflow the docs show: YAML blocks of docs/ci-example.md and the example files. */
function workflows(): [string, string][] {
  const page = read('docs/ci-example.md');
  const blocks = [...page.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)]
    .map((m) => m[1] ?? '')
    .filter((b) => /^jobs:/m.test(b))
    .map((b, i) => [`docs/ci-example.md block ${i + 1}`, b] as [string, string]);
  const files = readdirSync(join(ROOT, 'docs', 'examples'))
    .filter((f) => f.endsWith('.yml'))
    .map((f) => [`docs/examples/${f}`, read(`docs/examples/${f}`)] as [string, string]);
  return [...blocks, ...files];
}

/** What makes a workflow runnable by GitHub, as far as its shape goes. */
function workflowProblems(wf: Workflow): string[] {
  const problems: string[] = [];
  if (wf.on === undefined) problems.push('no "on" trigger');
  const jobs = wf.jobs ?? {};
  if (Object.keys(jobs).length === 0) problems.push('no jobs');
  for (const [id, job] of Object.entries(jobs)) {
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(id)) problems.push(`job id "${id}" is not valid`);
    if (job['runs-on'] === undefined) problems.push(`job ${id} has no runs-on`);
    for (const need of [job.needs ?? []].flat())
      if (!(need in jobs)) problems.push(`job ${id} needs unknown ${need}`);
    if (!Array.isArray(job.steps) || job.steps.length === 0) problems.push(`job ${id} has no steps`);
    for (const step of job.steps ?? []) {
      if ((step.uses === undefined) === (step.run === undefined))
        problems.push(`a step of ${id} needs one of uses/run`);
      if (step.uses !== undefined && !/^(\.\/|[\w.-]+\/[\w.-]+(\/[\w./-]+)?@[\w.-]+$)/.test(step.uses))
        problems.push(`"${step.uses}" is not owner/repo@ref`);
    }
  }
  return problems;
}

const usesAction = (step: Step) => step.uses !== undefined && /(^\.\/?$|\/ahp-conformance@)/.test(step.uses);

describe('action.yml', () => {
  it('is a composite action whose steps read only inputs it declares, each described', () => {
    expect(action.runs.using).toBe('composite');
    for (const name of INPUTS) expect(action.inputs[name]?.description, name).toBeTruthy();
    const used = [...read('action.yml').matchAll(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g)].map((m) => m[1]);
    expect(used.filter((u) => !INPUTS.includes(u as string))).toEqual([]);
    expect(INPUTS).toEqual(
      expect.arrayContaining(['command', 'target', 'reporters', 'known-failures', 'shard', 'timeout-scale']),
    );
    // It writes the job summary and uploads the reports.
    expect(read('action.yml')).toContain('$GITHUB_STEP_SUMMARY');
    expect(action.runs.steps.some((s) => s.uses?.startsWith('actions/upload-artifact@'))).toBe(true);
  });
});

describe('the workflows in the docs', () => {
  const all = workflows();

  it.each(all)('%s parses as a GitHub workflow', (_name, text) => {
    const wf = parse(text) as Workflow;
    expect(workflowProblems(wf)).toEqual([]);
  });

  it('use the action with its inputs only, as a matrix of 3 shards and a merge of their reports', () => {
    const sharded = all
      .map(([, t]) => parse(t) as Workflow)
      .filter((wf) => Object.values(wf.jobs ?? {}).some((j) => j.strategy?.matrix));
    expect(sharded.length).toBeGreaterThan(0);
    for (const wf of sharded) {
      const jobs = Object.entries(wf.jobs ?? {});
      const steps = jobs.flatMap(([, j]) => j.steps ?? []).filter(usesAction);
      expect(steps.length).toBeGreaterThanOrEqual(2);
      for (const step of steps)
        expect(Object.keys(step.with ?? {}).filter((k) => !INPUTS.includes(k))).toEqual([]);
      const [, shardJob] = jobs.find(([, j]) => j.strategy?.matrix) as [string, Job];
      const values = shardJob.strategy?.matrix?.shard as string[];
      expect(values).toEqual(['1/3', '2/3', '3/3']);
      const shardStep = (shardJob.steps ?? []).find(usesAction);
      expect(shardStep?.with?.shard).toBe('${{ matrix.shard }}');
      const [mergeId, mergeJob] = jobs.find(([, j]) =>
        (j.steps ?? []).some((s) => usesAction(s) && s.with?.command === 'merge'),
      ) as [string, Job];
      expect([mergeJob.needs].flat(), mergeId).toContain(jobs.find(([, j]) => j === shardJob)?.[0]);
      // The merge job downloads what the shards uploaded: the action names each shard's artifact.
      const download = (mergeJob.steps ?? []).find((s) => s.uses?.startsWith('actions/download-artifact@'));
      const pattern = String(download?.with?.pattern ?? '');
      const glob = new RegExp(`^${pattern.replace(/\*/g, '.*')}$`);
      const command = String(shardStep?.with?.command ?? 'harness');
      for (const v of values) {
        expect(`ahp-conformance-${command}-shard-${v.replace('/', '-of-')}`).toMatch(glob);
      }
    }
  });
});

describe('the release workflow (.github/workflows/release.yml)', () => {
  const text = read('.github/workflows/release.yml');
  const wf = parse(text) as Workflow & { permissions?: Record<string, string> };

  it('publishes with provenance on a version tag, after the checks, only when the tag is the version', () => {
    expect(workflowProblems(wf)).toEqual([]);
    expect(wf.on).toEqual({ push: { tags: ['v*.*.*'] } });
    expect(wf.permissions?.['id-token']).toBe('write');
    const steps = Object.values(wf.jobs ?? {}).flatMap((j) => j.steps ?? []);
    const scripts = steps.map((st) => st.run ?? '');
    const at = (fragment: string) => scripts.findIndex((r) => r.includes(fragment));
    expect(at('npm publish --provenance')).toBeGreaterThan(at('bash .ci/run'));
    expect(at('bash .ci/run')).toBeGreaterThan(at('GITHUB_REF_NAME'));
    expect(steps.find((st) => st.run?.includes('npm publish'))?.env).toEqual({
      NODE_AUTH_TOKEN: '${{ secrets.NPM_TOKEN }}',
    });
  });

  it('refuses a tag that is not the package version', async () => {
    const check = runs(text).find((r) => r.includes('GITHUB_REF_NAME')) as string;
    const version = (JSON.parse(read('package.json')) as { version: string }).version;
    const run = (tag: string) =>
      execa('bash', ['-e', '-c', check], { cwd: ROOT, reject: false, env: { GITHUB_REF_NAME: tag } });
    expect((await run(`v${version}`)).exitCode).toBe(0);
    const wrong = await run('v99.0.0');
    expect(wrong.exitCode).toBe(1);
    expect(wrong.stdout).toContain(`does not match package.json version ${version}`);
  });
});

/** The run scripts of a workflow's steps. */
function runs(text: string): string[] {
  const wf = parse(text) as Workflow;
  return Object.values(wf.jobs ?? {}).flatMap((j) => (j.steps ?? []).map((st) => st.run ?? ''));
}

describe('the action run step', () => {
  const SLOW = { timeout: 180_000 };
  let steps = 0;
  const step = async (env: Record<string, string>, cwd: string) => {
    const outputFile = join(cwd, `github-output-${++steps}`);
    const result = await execa('bash', [join(ROOT, 'scripts', 'action-run.sh')], {
      cwd,
      reject: false,
      env: {
        GITHUB_ACTION_PATH: ROOT,
        GITHUB_OUTPUT: outputFile,
        GITHUB_RUN_ID: '9876543210',
        ...env,
      },
    });
    const output = existsSync(outputFile) ? readFileSync(outputFile, 'utf8') : '';
    return { ...result, output };
  };

  it('runs a shard with a seed from the workflow run, then merges the shards', SLOW, async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ahp-action-'));
    const shard = await step(
      {
        INPUT_COMMAND: 'harness',
        INPUT_REPORTERS: 'json, markdown',
        INPUT_SHARD: '1/1',
        INPUT_ARGS: '--only "AHP-CORE-001"',
        INPUT_OUTPUT_DIR: 'shard-1',
      },
      cwd,
    );
    // The default version is the action's own checkout: the suite need not be published.
    expect(shard.stdout).toMatch(/^ahp-conformance \d+\.\d+\.\d+ \(the action's checkout\)$/m);
    expect(shard.stdout).toContain(
      'ahp-conformance harness --reporter json --reporter markdown --output-dir shard-1 --seed 1286608622 --shard 1/1 --only AHP-CORE-001',
    );
    expect(shard.output).toBe('exit-code=0\n');
    const report = JSON.parse(readFileSync(join(cwd, 'shard-1', 'report.json'), 'utf8')) as {
      seed: number;
      shard: { cases: string[] };
    };
    expect(report.seed).toBe(9876543210 % 2147483647);
    expect(report.shard.cases).toEqual(['AHP-CORE-001/claim-states-role-bindings-and-profiles']);
    const merged = await step(
      {
        INPUT_COMMAND: 'merge',
        INPUT_REPORTERS: 'markdown',
        INPUT_REPORTS: 'shard-*/report.json',
        INPUT_OUTPUT_DIR: 'merged',
      },
      cwd,
    );
    expect(merged.output).toBe('exit-code=0\n');
    expect(readFileSync(join(cwd, 'merged', 'report.md'), 'utf8')).toContain('AHP-CORE-001');
  });

  it('reports a version that cannot be installed as exit code 3, never 1', SLOW, async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ahp-action-'));
    // Offline, as an unpublished version fails on a runner: npx cannot fetch it.
    const missing = await step(
      {
        INPUT_VERSION: '0.0.0-unpublished',
        npm_config_offline: 'true',
        npm_config_cache: join(cwd, 'npm-cache'),
      },
      cwd,
    );
    expect(missing.output).toBe('exit-code=3\n');
    expect(missing.stdout).toMatch(
      /^::error::could not install or start ahp-conformance@0\.0\.0-unpublished from the npm registry; check the version input/m,
    );
  });

  it('refuses an unknown command and a merge of nothing with exit code 2 and one error line', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ahp-action-'));
    const bad = await step({ INPUT_COMMAND: 'validate' }, cwd);
    expect(bad.stdout.trim()).toBe(
      '::error::the command input must be harness, backend or merge, not "validate".',
    );
    expect(bad.output).toBe('exit-code=2\n');
    const none = await step(
      { INPUT_COMMAND: 'merge', INPUT_REPORTS: 'nothing/*.json' },
      mkdtempSync(join(tmpdir(), 'ahp-action-')),
    );
    expect(none.stdout).toMatch(/^::error::the reports input matches no file/);
  });
});
