import { describe, expect, it } from 'vitest';
import { UsageError } from '../io.js';
import { parseArgv, type ArgvSpec } from './argv.js';

const spec: ArgvSpec = {
  flags: {
    '--seed': { key: 'seed', kind: 'value', placeholder: '<n>' },
    '--only': { key: 'only', kind: 'list' },
    '--strict': { key: 'strict', kind: 'boolean' },
  },
  trailing: { name: 'driver command', example: '-- node driver.mjs', whenAbsent: 'drop "--"' },
};

function usageMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
}

describe('parseArgv', () => {
  it('splits flags, equals-forms, greedy lists and the command after --', () => {
    const parsed = parseArgv(
      ['--seed=7', '--only', 'A', 'B,C', '--strict', '--only', 'D', '--', 'node', '--seed', 'x'],
      spec,
    );
    expect(parsed.values).toEqual({ seed: '7', only: ['A', 'B', 'C', 'D'], strict: true });
    expect(parsed.trailing).toEqual(['node', '--seed', 'x']);
  });

  it('accepts a negative number as a value so the schema can name the range', () => {
    expect(parseArgv(['--seed', '-3'], spec).values.seed).toBe('-3');
  });

  it('refuses unknown flags with a suggestion, repeated values, missing values and stray arguments', () => {
    expect(usageMessage(() => parseArgv(['--sed', '1'], spec))).toBe(
      'unknown option "--sed"; did you mean --seed?',
    );
    expect(usageMessage(() => parseArgv(['--frobnicate'], spec))).toMatch(
      /unknown option "--frobnicate"; see --help/,
    );
    expect(usageMessage(() => parseArgv(['--seed', '1', '--seed', '2'], spec))).toMatch(/given twice/);
    expect(usageMessage(() => parseArgv(['--seed'], spec))).toMatch(/--seed needs a value: --seed <n>/);
    expect(usageMessage(() => parseArgv(['--seed', '--strict'], spec))).toMatch(/needs a value/);
    expect(usageMessage(() => parseArgv(['--strict=yes'], spec))).toMatch(/takes no value/);
    expect(usageMessage(() => parseArgv(['node'], spec))).toMatch(/put the driver command after "--"/);
  });

  it('refuses a bare -- and a -- where the command takes none', () => {
    expect(usageMessage(() => parseArgv(['--'], spec))).toMatch(
      /^nothing follows "--": put the driver command/,
    );
    expect(usageMessage(() => parseArgv(['--', ''], spec))).toMatch(/^nothing follows "--"/);
    expect(usageMessage(() => parseArgv(['--', 'x'], { flags: {} }))).toMatch(/takes no command after "--"/);
  });

  it('collects positionals and requires the minimum', () => {
    const files: ArgvSpec = { flags: {}, positionals: { name: 'file(s) to validate', min: 1 } };
    expect(parseArgv(['a.json', 'b.jsonl'], files).positionals).toEqual(['a.json', 'b.jsonl']);
    expect(usageMessage(() => parseArgv([], files))).toMatch(/give at least 1 file\(s\) to validate/);
  });
});
