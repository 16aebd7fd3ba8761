// `harness --interop` end to end, through the bin, against the bundled reference driver, over a
// handful of scenarios of our own in the authors' format (written to a temporary folder: the
// runner reads the user's files at run time): an empty answer, a deny, a response with an
// unknown effect kind to reject whole, an incoming flow stop, two registrations, and an
// observation chain. A driver
// that reports the v1.3 outcome members (features.outcomes) gets each intercept scenario
// judged; one that does not gets them untested with that reason, never passed.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../protocol/json.js';
import { interceptScenario, scenarioFile } from '../suites/interop/test-support/samples.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'ahp-conformance.mjs');
const work = mkdtempSync(join(tmpdir(), 'ahp-interop-e2e-'));
const folder = join(work, 'interop');

const reply = (id: string, effects: JsonObject[]): JsonObject => ({
  jsonrpc: '2.0',
  id,
  result: { protocolVersion: 'draft', effects },
});

const deny = interceptScenario('plain-deny', {
  response: reply('plain-deny', [{ type: 'deny', reason: 'no' }]),
  tags: ['deny'],
  expected: { decision: 'deny', executed: false, messages: [] },
});
const rejected = interceptScenario('unknown-kind-rejected', {
  response: reply('unknown-kind-rejected', [{ type: 'teleport' }]),
  tags: ['negative', 'schema-invalid', 'atomic-rejection'],
  expectError: true,
});
delete rejected.expected;
const stopped = interceptScenario(
  'incoming-stop',
  {
    tags: ['flow', 'state', 'serial-pipeline'],
    expected: { decision: 'allow', executed: false, messages: [], flow: 'stop' },
  },
  {
    capabilities: { effects: ['deny', 'flow'], flow: { operations: ['stop'] } },
    state: { permission: 'none', candidate: null, flow: 'stop' },
  },
);

const registration = (id: string, subscription: JsonObject, accepted: boolean): JsonObject => ({
  id,
  category: 'registration',
  steps: [
    {
      op: 'register',
      registration: {
        protocolVersion: 'draft',
        hooks: [
          {
            id: 'dev.test.interop',
            transport: { type: 'http', url: 'https://policy.example.invalid/hooks' },
            subscriptions: [
              {
                events: ['tool.before'],
                mode: 'intercept',
                content: { default: 'metadata' },
                ...subscription,
              },
            ],
          },
        ],
      },
      requirements: [],
      context: { interactive: true, environment: {} },
    },
  ],
  expected: { sent: [], registrations: [{ accepted }], deliveries: [] },
  requests: {},
  responses: {},
});

/** An observation chain: a denies, so b only gets the boundary copy and the audit observer its own. */
const chainSubscription = (id: string, backend: string, mode: string): JsonObject => ({
  id,
  backend,
  mode,
  failurePolicy: 'fail-open',
  content: 'metadata',
});
const chainDeny: JsonObject = {
  id: 'chain-deny',
  chain: {
    subscriptions: [
      chainSubscription('chain-deny:a', 'shared', 'intercept'),
      chainSubscription('chain-deny:b', 'b', 'intercept'),
      chainSubscription('chain-deny:audit', 'shared', 'observe'),
    ],
    interrupt: false,
    holdObservers: false,
  },
  requests: {
    a: {
      params: {
        event: { type: 'tool.before', tool: { name: 'task', input: { value: 'original' } } },
        capabilities: { effects: ['deny'] },
      },
    },
  },
  responses: {},
  responseSequences: { a: [reply('chain-deny', [{ type: 'deny', reason: 'policy' }])] },
  steps: [],
  expected: {
    called: ['chain-deny:a'],
    failures: [],
    observations: ['chain-deny:b', 'chain-deny:audit'],
    input: { value: 'original' },
  },
};

interface CaseShown {
  name: string;
  status: string;
  note?: string;
}

let cases: Map<string, CaseShown>;
let outcomes = false;

/** One `harness --interop` run over the folder; `driver` absent: the bundled reference. */
async function interopRun(name: string, driver: string[] = []) {
  const out = join(work, name);
  const argv = [BIN, 'harness', '--interop', folder, '--reporter', 'json', '--output-dir', out];
  if (driver.length > 0) argv.push('--', ...driver);
  const result = await execa(process.execPath, argv, { cwd: ROOT, reject: false });
  if (!existsSync(join(out, 'report.json'))) {
    throw new Error(`ahp-conformance harness exited ${String(result.exitCode)}: ${result.stderr}`);
  }
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
    target: { features?: Record<string, unknown> };
    requirements: { cases?: CaseShown[] }[];
  };
  const shown = new Map(report.requirements.flatMap((r) => r.cases ?? []).map((c) => [c.name, c]));
  return { report, cases: shown, exitCode: result.exitCode };
}

beforeAll(async () => {
  const { mkdirSync } = await import('node:fs');
  mkdirSync(folder);
  writeFileSync(
    join(folder, 'scenarios.json'),
    JSON.stringify(scenarioFile(interceptScenario('empty-answer'), deny, rejected, stopped)),
  );
  writeFileSync(
    join(folder, 'catalogue-scenarios.json'),
    JSON.stringify(
      scenarioFile(
        registration(
          'registration-intercept-accepted',
          { timeoutMs: 500, failurePolicy: 'fail-closed' },
          true,
        ),
        registration('registration-explicit-failure-policy-required', { timeoutMs: 500 }, false),
      ),
    ),
  );
  writeFileSync(join(folder, 'observation-chain-scenarios.json'), JSON.stringify(scenarioFile(chainDeny)));
  const run = await interopRun('reference');
  outcomes = run.report.target.features?.outcomes === true;
  cases = run.cases;
});

describe('harness --interop against the reference driver', () => {
  it('runs every scenario of the folder as a case named interop/<set>/<id>', () => {
    expect([...cases.keys()].sort()).toEqual([
      'interop/catalogue-scenarios/registration-explicit-failure-policy-required',
      'interop/catalogue-scenarios/registration-intercept-accepted',
      'interop/observation-chain-scenarios/chain-deny',
      'interop/scenarios/empty-answer',
      'interop/scenarios/incoming-stop',
      'interop/scenarios/plain-deny',
      'interop/scenarios/unknown-kind-rejected',
    ]);
  });

  it('judges the registrations through configure', () => {
    expect(cases.get('interop/catalogue-scenarios/registration-intercept-accepted')?.status).toBe('pass');
    expect(
      cases.get('interop/catalogue-scenarios/registration-explicit-failure-policy-required')?.status,
    ).toBe('pass');
  });

  it('passes the intercept scenarios with the v1.3 outcomes, and leaves them untested without them', () => {
    for (const id of ['empty-answer', 'plain-deny', 'unknown-kind-rejected', 'incoming-stop']) {
      const shown = cases.get(`interop/scenarios/${id}`);
      if (outcomes) expect(shown?.status, id).toBe('pass');
      else {
        expect(shown?.status, id).toBe('untested');
        expect(shown?.note, id).toMatch(/features\.outcomes/);
      }
    }
  });

  it('runs an observation chain as a backend set and judges who is asked and who only observes', () => {
    expect(cases.get('interop/observation-chain-scenarios/chain-deny')?.status).toBe('pass');
  });

  it('fails a broken harness on the scenarios its defect shows in', async () => {
    const twin = (name: string) => ['node', join(ROOT, 'bin', 'ahp-broken-twin.mjs'), name];
    const executes = await interopRun('deny-still-executes', twin('deny-still-executes'));
    expect(executes.exitCode).toBe(1);
    expect(executes.cases.get('interop/scenarios/plain-deny')).toMatchObject({ status: 'fail' });
    const implicit = await interopRun('implicit-policy', twin('implicit-policy'));
    expect(
      implicit.cases.get('interop/catalogue-scenarios/registration-explicit-failure-policy-required')?.status,
    ).toBe('fail');
    expect(implicit.cases.get('interop/catalogue-scenarios/registration-intercept-accepted')?.status).toBe(
      'pass',
    );
    const continues = await interopRun('chain-continues-after-deny', twin('chain-continues-after-deny'));
    expect(continues.cases.get('interop/observation-chain-scenarios/chain-deny')?.status).toBe('fail');
  });
});
