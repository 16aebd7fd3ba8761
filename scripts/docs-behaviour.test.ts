// Sentences of the README and docs/ that describe what the product does, held to what it does:
// the environment a stdio backend gets, the --deadline-ms default, what the console summary lists,
// what the Action's default install fetches, and the example workflows' known-failures file.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { backendCommand } from '../cli/commands/backend.js';
import { renderConsoleSummary } from '../cli/console/summary.js';
import { buildReport } from '../cli/report/report.js';
import type { CaseResult } from '../cli/runner/case-result.js';
import { CHILD_ENV_ALLOWLIST } from '../reference-harness/transports/index.js';
import { ROOT } from './lib/doc-sandbox.js';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
/** Prose with its line breaks folded, so a sentence can be matched across lines. */
const prose = (path: string) => read(path).replace(/\s*\n\s*/g, ' ');

describe('docs/backend-vendors.md', () => {
  it('names exactly the variables a stdio backend inherits', () => {
    const sentence =
      /with a minimal environment, as a harness starts it: only (.*?) are passed on from yours/.exec(
        prose('docs/backend-vendors.md'),
      );
    expect(sentence, 'docs/backend-vendors.md states the minimal environment of --stdio').not.toBeNull();
    const named = [...(sentence?.[1] ?? '').matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]);
    expect(named).toEqual([...CHILD_ENV_ALLOWLIST]);
  });

  it('gives the --deadline-ms default that backend --help gives', () => {
    const inHelp = /--deadline-ms N .*\(default (\d+)\)/.exec(backendCommand.help)?.[1];
    expect(inHelp).toBeDefined();
    expect(prose('docs/backend-vendors.md')).toContain(`\`--deadline-ms <n>\` (default ${inHelp})`);
  });
});

describe("the README's account of the console summary", () => {
  const caseOf = (requirement: string, status: CaseResult['status']): CaseResult => ({
    name: `${requirement}/case`,
    file: 'x',
    requirements: [requirement],
    level: 'MUST',
    transports: ['stdio-persistent'],
    profiles: [],
    status,
    durationMs: 1,
    errors: status === 'fail' ? ['- it failed'] : [],
  });

  it('says passing requirements are counted, not listed, and the summary does that', () => {
    expect(prose('README.md')).toContain(
      'the requirements that did not pass (one line each; those that pass are counted, not listed)',
    );
    const report = buildReport({
      version: '0.1.0',
      role: 'harness',
      target: {},
      claim: { role: 'harness', bindings: ['stdio'], profiles: ['base'] },
      seed: 0,
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 1000,
      cases: [caseOf('AHP-RPC-001', 'pass'), caseOf('AHP-STDIO-001', 'fail')],
      runErrors: [],
    });
    const lines = renderConsoleSummary(report, { strict: false }).split('\n');
    const listed = lines.slice(lines.findIndex((l) => l.startsWith('Requirements: ')) + 1);
    expect(lines.find((l) => l.startsWith('Requirements: '))).toMatch(/^Requirements: 1 of 2 pass/);
    expect(listed.some((l) => l.includes('AHP-STDIO-001'))).toBe(true);
    expect(listed.some((l) => l.includes('AHP-RPC-001'))).toBe(false);
  });
});

describe("the Action's default install", () => {
  it('runs npm ci, so neither the docs nor the action say it needs no registry', () => {
    expect(read('scripts/action-run.sh')).toMatch(/\n\s*\(cd "\$action_path" && npm ci /);
    for (const file of ['docs/ci-example.md', 'action.yml', 'scripts/action-run.sh', 'README.md'])
      expect(prose(file), file).not.toMatch(/no registry/i);
    expect(prose('docs/ci-example.md')).toContain(
      '`npm ci` still fetches its dependencies from the npm registry',
    );
  });
});

interface Step {
  run?: string;
  with?: Record<string, unknown>;
}

/** Every step of the example workflows: docs/examples/*.yml and the YAML blocks of ci-example.md. */
function exampleSteps(): Array<{ where: string; step: Step }> {
  const texts: Array<[string, string]> = [
    ['docs/examples/github-workflow.yml', read('docs/examples/github-workflow.yml')],
    ...[...read('docs/ci-example.md').matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map(
      (m, i) => [`docs/ci-example.md yaml block ${i + 1}`, m[1] ?? ''] as [string, string],
    ),
  ];
  return texts.flatMap(([where, text]) => {
    const wf = parse(text) as { jobs?: Record<string, { steps?: Step[] }> } | null;
    return Object.values(wf?.jobs ?? {}).flatMap((job) => (job.steps ?? []).map((step) => ({ where, step })));
  });
}

describe('the example workflows, copied into a project without a known-failures file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ahp-workflow-copy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('pass the Action no known-failures file (a path that is not there stops the run)', () => {
    const given = exampleSteps().filter(({ step }) => step.with?.['known-failures'] !== undefined);
    expect(given.map((g) => g.where)).toEqual([]);
  });

  it('run the harness without --known-failures until the file exists, and with it after', () => {
    const runs = exampleSteps().filter(({ step }) => step.run?.includes('ahp-conformance harness'));
    expect(runs.length).toBeGreaterThan(0);
    // `npx` stands in for the suite: it prints the arguments the step gives it.
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'npx'), '#!/bin/sh\nprintf "%s\\n" "$@"\n');
    chmodSync(join(bin, 'npx'), 0o755);
    const argsOf = (run: string) =>
      spawnSync('bash', ['-e', '-c', run], {
        cwd: dir,
        env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
        encoding: 'utf8',
      }).stdout.split('\n');
    for (const { where, step } of runs) {
      rmSync(join(dir, 'conformance'), { recursive: true, force: true });
      expect(argsOf(step.run ?? ''), where).not.toContain('--known-failures');
      mkdirSync(join(dir, 'conformance'));
      writeFileSync(join(dir, 'conformance', 'known-failures.txt'), '');
      expect(argsOf(step.run ?? ''), where).toContain('--known-failures');
    }
  });
});
