import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InteropInputError, loadInterop, parseInteropFile } from './load.js';
import { interceptScenario, scenarioFile } from './test-support/samples.js';

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InteropInputError);
    return (error as Error).message;
  }
  throw new Error('expected an InteropInputError');
}

const parse = (content: unknown) => parseInteropFile('scenarios.json', 'x/scenarios.json', content);

describe('parseInteropFile', () => {
  it('reads a valid scenario file as the set named by its stem', () => {
    const set = parse(scenarioFile(interceptScenario('a'), interceptScenario('b')));
    expect(set.set).toBe('scenarios');
    expect(set.scenarios.map((s) => s.id)).toEqual(['a', 'b']);
  });

  it('refuses an unknown top-level field in one sentence naming the file, the scenario and the field', () => {
    const message = errorOf(() => parse(scenarioFile(interceptScenario('a', { barrier: 'b1' }))));
    expect(message).toMatch(/^x\/scenarios\.json: scenario "a" has an unknown field "barrier"/);
    expect(message.split('. ')).toHaveLength(1);
  });

  it('refuses an unknown key of the expected outcome and of the state', () => {
    const expected = { decision: 'allow', executed: true, messages: [], audit: [] };
    expect(errorOf(() => parse(scenarioFile(interceptScenario('a', { expected }))))).toMatch(
      /scenario "a" has an unknown field "expected\.audit"/,
    );
    const state = { permission: 'none', candidate: null, lease: 1 };
    expect(errorOf(() => parse(scenarioFile(interceptScenario('s', {}, { state }))))).toMatch(
      /scenario "s" has an unknown field "request\.params\.state\.lease"/,
    );
  });

  it('refuses an unknown effect kind in a scenario to accept, but not in one to reject', () => {
    const response = {
      jsonrpc: '2.0',
      id: 'a',
      result: { protocolVersion: 'draft', effects: [{ type: 'pause' }] },
    };
    expect(errorOf(() => parse(scenarioFile(interceptScenario('a', { response }))))).toMatch(
      /scenario "a" has an unknown effect kind "pause" at "response\.result\.effects\[0\]\.type"/,
    );
    const rejected = interceptScenario('r', { response, expectError: true });
    delete rejected.expected;
    expect(parse(scenarioFile(rejected)).scenarios).toHaveLength(1);
  });

  it('refuses a scenario with both or neither of expected and expectError, and a repeated id', () => {
    expect(errorOf(() => parse(scenarioFile(interceptScenario('a', { expectError: true }))))).toMatch(
      /scenario "a" has both "expected" and "expectError"/,
    );
    const neither = interceptScenario('n');
    delete neither.expected;
    expect(errorOf(() => parse(scenarioFile(neither)))).toMatch(/neither "expected" nor "expectError"/);
    expect(errorOf(() => parse(scenarioFile(interceptScenario('a'), interceptScenario('a'))))).toMatch(
      /scenario "a" appears twice/,
    );
  });

  it('refuses an unknown step op of a lifecycle scenario, naming it', () => {
    const scenario = { id: 'l', requests: {}, responses: {}, steps: [{ op: 'teleport' }], expected: {} };
    const message = errorOf(() =>
      parseInteropFile('lifecycle-scenarios.json', 'lifecycle-scenarios.json', scenarioFile(scenario)),
    );
    expect(message).toMatch(/scenario "l" has an unknown step op at "steps\[0\]\.op"/);
  });

  it('refuses an unknown field of the file itself', () => {
    expect(errorOf(() => parse({ ...scenarioFile(), generator: 'x' }))).toMatch(
      /^x\/scenarios\.json has an unknown field "generator"/,
    );
  });
});

describe('loadInterop', () => {
  it('reads the known files of a folder and refuses a folder, a path or a file name it cannot use', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'interop-'));
    await expect(loadInterop(dir)).rejects.toThrow(/holds none of scenarios\.json/);
    await writeFile(join(dir, 'scenarios.json'), JSON.stringify(scenarioFile(interceptScenario('a'))));
    await writeFile(join(dir, 'notes.json'), '{}');
    const sets = await loadInterop(dir);
    expect(sets.map((s) => [s.set, s.scenarios.length])).toEqual([['scenarios', 1]]);
    await expect(loadInterop(join(dir, 'notes.json'))).rejects.toThrow(/is not one of scenarios\.json/);
    await expect(loadInterop(join(dir, 'absent'))).rejects.toThrow(/does not exist/);
    await writeFile(join(dir, 'scenarios.json'), '{');
    await expect(loadInterop(dir)).rejects.toThrow(/is not JSON/);
  });
});
