// Every kind of bad input a user can type: each ends with exit 2 and one sentence on stderr that
// names the input and the fix, never a stack trace. Run in-process through run(io).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILE_SYSTEM_STEP_MS } from './file-system-bound.js';
import type { ProcessControl } from './io.js';
import { run } from './run.js';
import { fakeIo } from './test-support/fake-io.js';

const dir = mkdtempSync(join(tmpdir(), 'ahp-bad-input-'));
writeFileSync(join(dir, 'a-file'), 'not a directory');
writeFileSync(join(dir, 'no-reason.txt'), 'AHP-FAIL-001\n');
writeFileSync(join(dir, 'bad-pattern.txt'), 'AHP-NOPE-001 # does not exist\n');
writeFileSync(join(dir, 'broken.json'), '{"seed": 1,');
writeFileSync(join(dir, 'unknown-key.json'), '{"sed": 1}');
writeFileSync(join(dir, 'bad-scenario.json'), '{"rules": [{"behaviour": {"kind": "explode"}}]}');
writeFileSync(join(dir, 'not-json-scenario.json'), 'rules: []');
writeFileSync(join(dir, 'array.json'), '[{"command":"ls"}]');
// An interop scenario file whose one scenario carries a field this version cannot run.
const interopDir = mkdtempSync(join(tmpdir(), 'ahp-bad-interop-'));
writeFileSync(
  join(interopDir, 'catalogue-scenarios.json'),
  JSON.stringify({
    version: 1,
    scenarios: [
      {
        id: 'reg-1',
        category: 'registration',
        steps: [],
        expected: {},
        requests: {},
        responses: {},
        weight: 2,
      },
    ],
  }),
);

// A stdio mock that fails to start must not touch the test process's own signals or exit.
const processControl: ProcessControl = {
  pid: 1,
  exit: () => undefined,
  killSelf: () => undefined,
  trapSigterm: () => undefined,
};

interface BadInput {
  argv: string[];
  /** What the one sentence must say: the input it names, and often the fix. */
  says: RegExp;
  env?: Record<string, string>;
}

const URL_OK = 'http://127.0.0.1:9/ahp';

const CASES: Record<string, BadInput> = {
  'an unknown command': { argv: ['frobnicate'], says: /unknown command "frobnicate"; use one of: harness/ },
  'an unknown flag': { argv: ['harness', '--frobnicate'], says: /unknown option "--frobnicate"/ },
  'a misspelt flag': {
    argv: ['harness', '--sede', '1'],
    says: /unknown option "--sede"; did you mean --seed\?/,
  },
  'nothing after --': {
    argv: ['harness', '--'],
    says: /nothing follows "--": put the driver command after it/,
  },
  'a driver without --': {
    argv: ['harness', 'node', 'driver.mjs'],
    says: /unexpected argument "node"; put the driver command after "--"/,
  },
  'a flag without its value': { argv: ['harness', '--seed'], says: /--seed needs a value: --seed <n>/ },
  'an interop path that does not exist': {
    argv: ['harness', '--interop', join(dir, 'nowhere')],
    says: /--interop: ".*nowhere" does not exist; give the interop folder of a checkout/,
  },
  'an interop scenario with an unknown field': {
    argv: ['harness', '--interop', interopDir],
    says: /catalogue-scenarios\.json: scenario "reg-1" has an unknown field "weight"/,
  },
  'an interop folder listed without its scenario files': {
    argv: ['list', '--interop', dir],
    says: /--interop: the folder ".*" holds none of scenarios\.json/,
  },
  'a bad seed': {
    argv: ['harness', '--seed', 'abc'],
    says: /--seed must be an integer from 0 to 2147483647, not "abc"/,
  },
  'a seed out of range': { argv: ['harness', '--seed', '99999999999'], says: /--seed must be an integer/ },
  'zero property runs': {
    argv: ['harness', '--runs', '0'],
    says: /--runs must be a whole number .* not "0"/,
  },
  'a negative timeout scale': {
    argv: ['harness', '--timeout-scale', '-1'],
    says: /--timeout-scale must be a number above 0/,
  },
  'a repeat count that is not a number': {
    argv: ['harness', '--repeat', 'x'],
    says: /--repeat must be a whole number/,
  },
  'an unknown reporter': {
    argv: ['harness', '--reporter', 'xml'],
    says: /--reporter must be one of console, json, junit, html, markdown, not "xml"/,
  },
  'an output directory that cannot be written': {
    argv: ['harness', '--reporter', 'junit', '--output-dir', 'a-file/reports'],
    says: /cannot write reports to the output directory "a-file\/reports" \(ENOTDIR\); pass a writable directory/,
  },
  'an output directory under /proc, where a recursive mkdir never returns': {
    argv: ['harness', '--reporter', 'json', '--output-dir', '/proc/ahp-reports'],
    says: /cannot write reports to the output directory "\/proc\/ahp-reports" \(ENOENT\); pass a writable directory/,
  },
  'protocol revision 0.1': {
    argv: ['harness', '--protocol-version', '0.1'],
    says: /--protocol-version must be "draft" \(the only revision this suite tests\), not "0.1"/,
  },
  'an unknown protocol revision': {
    argv: ['harness', '--protocol-version', '2'],
    says: /--protocol-version must be "draft" \(the only revision this suite tests\), not "2"/,
  },
  'an unknown requirement ID': {
    argv: ['harness', '--only', 'AHP-NOPE-001'],
    says: /--only "AHP-NOPE-001": "AHP-NOPE-001" is not a requirement ID of the catalogue/,
  },
  'an unreadable known-failures file': {
    argv: ['harness', '--known-failures', 'missing.txt'],
    says: /cannot read the known-failures file "missing.txt" \(ENOENT\)/,
  },
  'a known-failures line without a reason': {
    argv: ['harness', '--known-failures', 'no-reason.txt'],
    says: /known-failures file "no-reason.txt" line 1 gives no reason for "AHP-FAIL-001"; write it as "<pattern> # <why it fails>"/,
  },
  'a known-failures line with an unknown ID': {
    argv: ['harness', '--known-failures', 'bad-pattern.txt'],
    says: /"bad-pattern.txt" line 1: "AHP-NOPE-001" is not a requirement ID/,
  },
  'an unreadable config file': {
    argv: ['harness', '--config', 'missing.json'],
    says: /cannot read the config file "missing.json" \(ENOENT\); check the path given to --config/,
  },
  'a config file that is not JSON': {
    argv: ['harness', '--config', 'broken.json'],
    says: /the config file "broken.json" is not valid JSON/,
  },
  'a config file with an unknown key': {
    argv: ['harness', '--config', 'unknown-key.json'],
    says: /the config file "unknown-key.json" has an unknown key "sed"/,
  },
  'a backend without a target': { argv: ['backend'], says: /choose the backend: --stdio -- <command>/ },
  'a bad URL': { argv: ['backend', '--url', 'not a url'], says: /--url .*not a url/ },
  'a URL of the wrong scheme': { argv: ['backend', '--url', 'ftp://example.com/ahp'], says: /--url .*ftp:/ },
  'both --stdio and --url': {
    argv: ['backend', '--stdio', '--url', URL_OK, '--', 'node', 'b.mjs'],
    says: /--stdio and --url exclude each other/,
  },
  'a stdio backend without its command': {
    argv: ['backend', '--stdio'],
    says: /--stdio needs the backend command after --/,
  },
  'a token variable that is not set': {
    argv: ['backend', '--url', URL_OK, '--bearer-token-env', 'AHP_TEST_UNSET_TOKEN'],
    says: /AHP_TEST_UNSET_TOKEN \(from --bearer-token-env\) is empty or not set/,
  },
  'a deny input that is not a JSON object': {
    argv: ['backend', '--url', URL_OK, '--deny-input', '[1,2]'],
    says: /--deny-input must be a JSON object/,
  },
  'an allow input file that holds an array': {
    argv: ['backend', '--url', URL_OK, '--allow-input', '@array.json'],
    says: /the --allow-input file "array\.json" holds an array; it must hold a JSON object/,
  },
  'an unreadable scenario file': {
    argv: ['mock-backend', '--http', '--scenario', 'missing-scenario.json'],
    says: /missing-scenario\.json/,
  },
  'an invalid scenario file': {
    argv: ['mock-backend', '--http', '--scenario', 'bad-scenario.json'],
    says: /bad-scenario\.json/,
  },
  'a scenario file that is not JSON': {
    argv: ['mock-backend', '--stdio', '--scenario', 'not-json-scenario.json'],
    says: /not-json-scenario\.json/,
  },
  'an unknown built-in scenario': {
    argv: ['mock-backend', '--http', '--scenario', 'denny'],
    says: /"denny" is neither a file nor a built-in name; did you mean "deny"\?$/,
  },
  'a mock without a transport': {
    argv: ['mock-backend', '--scenario', 'deny'],
    says: /choose a transport: add --stdio .* or --http/,
  },
  'validate without files': { argv: ['validate'], says: /give at least 1 file to validate/ },
  'list with an unknown flag': { argv: ['list', '--verbose'], says: /unknown option "--verbose"/ },
  'explain without an ID': { argv: ['explain'], says: /requirement ID/ },
  'explain with a misspelt ID': {
    argv: ['explain', 'AHP-FAIL-01'],
    says: /there is no requirement "AHP-FAIL-01"; did you mean AHP-FAIL-001\?/,
  },
  'explain with an ID far from every known one': {
    argv: ['explain', 'nothing-like-it'],
    says: /there is no requirement "nothing-like-it"; `ahp-conformance list --coverage` lists every ID\./,
  },
  'explain with two IDs': {
    argv: ['explain', 'AHP-FAIL-001', 'AHP-FAIL-002'],
    says: /unexpected argument "AHP-FAIL-002"; explain takes one requirement ID\./,
  },
};

describe('bad input: exit 2, one sentence naming the input, no stack trace', () => {
  it('covers at least twenty kinds of bad input', () => {
    expect(Object.keys(CASES).length).toBeGreaterThanOrEqual(20);
  });

  for (const [title, c] of Object.entries(CASES)) {
    it(title, async () => {
      const f = fakeIo(c.argv, { cwd: dir, env: c.env ?? {} });
      const code = await run({ ...f.io, processControl });
      const err = f.err();
      expect(code, `stderr: ${err}`).toBe(2);
      const lines = err.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(err).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
      expect(err).not.toMatch(/\b(?:TypeError|ReferenceError|SyntaxError|ZodError)\b/);
      expect(lines[0]).toMatch(/^ahp-conformance[ :]/);
      expect(lines[0]).toMatch(c.says);
      expect(lines[0]).toMatch(/[.?]$/);
    });
  }

  it(
    'a known-failures file that never answers (a FIFO nobody writes) is one sentence, not a hang',
    { timeout: FILE_SYSTEM_STEP_MS * 3 },
    async () => {
      const fifo = join(dir, 'fifo.txt');
      execFileSync('mkfifo', [fifo]);
      const f = fakeIo(['harness', '--known-failures', 'fifo.txt'], { cwd: dir, env: {} });
      expect(await run(f.io)).toBe(2);
      expect(f.err()).toBe(
        'ahp-conformance harness: cannot read the known-failures file "fifo.txt" (ETIMEDOUT); check the path given to --known-failures.\n',
      );
    },
  );

  it(
    'a selection pattern that matches no case',
    { timeout: 120_000 }, // the reference driver starts once, then the suite is collected
    async () => {
      const f = fakeIo(['harness', '--only', 'AHP-FAIL-001/no-such-subtree/**'], {
        cwd: dir,
        env: process.env,
      });
      expect(await run(f.io)).toBe(2);
      expect(f.err().trim()).toBe(
        'ahp-conformance harness: --only "AHP-FAIL-001/no-such-subtree/**" matches no case; run `ahp-conformance list` to see the case names, requirement IDs and profiles.',
      );
    },
  );
});
