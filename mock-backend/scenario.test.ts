import { describe, expect, it } from 'vitest';
import { loadScenario, parseScenarioText, parseScenarioValue } from './scenario.js';

function errorOf(value: unknown, source = 'file bad.json') {
  const r = parseScenarioValue(value, source);
  if (r.ok) throw new Error('expected a parse error');
  return r.error;
}

describe('parseScenarioValue', () => {
  it('accepts a full scenario and returns it unchanged', () => {
    const scenario = {
      name: 'x',
      seed: 3,
      rules: [
        {
          name: 'retry',
          match: {
            toolName: 'Bash',
            attempt: { min: 1, max: 2 },
            fields: [{ path: 'call.id', equals: null }],
            identity: ['evt-1', 'call-1'],
          },
          behaviour: { kind: 'sequence', steps: [{ kind: 'hang' }], then: { kind: 'deny' } },
          times: 2,
        },
      ],
      unmatched: { kind: 'rpc-error', code: -32601 },
      notifications: { kind: 'silent' },
      unparseable: { kind: 'raw', chunks: [{ base64: 'AP8K', afterMs: 5 }] },
      process: { banner: 'hello', ignoreSigterm: true },
      http: { requireBearer: { token: 't' } },
    };
    const r = parseScenarioValue(scenario, 'file ok.json');
    expect(r).toEqual({ ok: true, scenario });
  });

  it('names the file, the JSON path and the expected kinds for an unknown behaviour kind', () => {
    const e = errorOf({ rules: [{ behaviour: { kind: 'respnd' } }] });
    expect(e.path).toBe('$.rules[0].behaviour.kind');
    expect(e.message).toMatch(
      /^Scenario file bad\.json is invalid at \$\.rules\[0\]\.behaviour\.kind: expected "kind" to be one of "respond", "deny", .*"wrong-content-type", "upload-receipt", found "respnd"\.$/,
    );
  });

  it('refuses an empty identity list, which could match no frame', () => {
    const e = errorOf({ rules: [{ match: { identity: [] }, behaviour: { kind: 'deny' } }] });
    expect(e.path).toBe('$.rules[0].match.identity');
  });

  it('finds errors deep inside nested behaviours', () => {
    const e = errorOf({
      rules: [
        {
          behaviour: {
            kind: 'delay',
            ms: 5,
            then: { kind: 'sequence', steps: [{ kind: 'exit', code: 1.5 }] },
          },
        },
      ],
    });
    expect(e.message).toBe(
      'Scenario file bad.json is invalid at $.rules[0].behaviour.then.steps[0].code: expected an integer, found 1.5.',
    );
  });

  it('reports a misspelt key rather than the missing one it hides', () => {
    expect(errorOf({ rulez: [] }).message).toBe(
      'Scenario file bad.json is invalid at $.rulez: expected no key "rulez" here (check the spelling).',
    );
    expect(errorOf({ rules: [{ behaviour: { kind: 'deny', reasn: 'x' } }] }).path).toBe(
      '$.rules[0].behaviour.reasn',
    );
  });

  it('explains missing fields, wrong types, ranges, enums and refinements', () => {
    expect(errorOf({ rules: [{ behaviour: { kind: 'rpc-error' } }] }).message).toBe(
      'Scenario file bad.json is invalid at $.rules[0].behaviour.code: expected a number, found nothing.',
    );
    expect(errorOf({ rules: 'x' }).message).toBe(
      'Scenario file bad.json is invalid at $.rules: expected an array, found "x".',
    );
    expect(errorOf({ rules: [{ behaviour: { kind: 'hang' }, times: 0 }] }).message).toBe(
      'Scenario file bad.json is invalid at $.rules[0].times: expected a number >= 1, found 0.',
    );
    expect(
      errorOf({
        rules: [
          {
            behaviour: {
              kind: 'probability',
              p: 2,
              behaviour: { kind: 'hang' },
              otherwise: { kind: 'hang' },
            },
          },
        ],
      }).expected,
    ).toBe('a number <= 1');
    expect(errorOf({ rules: [{ behaviour: { kind: 'signal', signal: 'SIGFOO' } }] }).message).toMatch(
      /at \$\.rules\[0\]\.behaviour\.signal: expected one of "SIGKILL", .*, found "SIGFOO"\.$/,
    );
    expect(
      errorOf({ rules: [{ behaviour: { kind: 'raw', chunks: [{ text: 'a', base64: 'AA==' }] } }] }).message,
    ).toBe(
      'Scenario file bad.json is invalid at $.rules[0].behaviour.chunks[0]: expected exactly one of "text" (UTF-8) or "base64", found an object.',
    );
    expect(errorOf({ rules: [{ behaviour: { kind: 'raw', chunks: [{ base64: '@@' }] } }] }).expected).toBe(
      'a valid base64 string',
    );
    expect(errorOf({ rules: [{ match: { attempt: 0 }, behaviour: { kind: 'hang' } }] }).message).toBe(
      'Scenario file bad.json is invalid at $.rules[0].match.attempt: expected a number >= 1, found 0.',
    );
    expect(errorOf({ rules: [{ match: { delivery: 'first' }, behaviour: { kind: 'hang' } }] }).message).toBe(
      'Scenario file bad.json is invalid at $.rules[0].match.delivery: expected a positive integer or {"min": n, "max": n}, found "first".',
    );
    expect(
      errorOf({ rules: [{ match: { fields: [{ path: 'a' }] }, behaviour: { kind: 'hang' } }] }).expected,
    ).toBe('exactly one of "equals" or "contains"');
    expect(errorOf({ rules: [], process: { banner: 'a\nb' } }).path).toBe('$.process.banner');
    expect(errorOf({ rules: [{ behaviour: {} }] }).message).toMatch(/found no "kind"\.$/);
    expect(errorOf([]).message).toBe(
      'Scenario file bad.json is invalid at $: expected an object, found an array.',
    );
  });

  it('every message is one sentence', () => {
    for (const v of [
      { rules: [{ behaviour: { kind: 'x' } }] },
      { rules: 1 },
      { rules: [], seed: 'a' },
      null,
    ]) {
      const message = errorOf(v).message;
      expect(message.endsWith('.')).toBe(true);
      expect(message.includes('\n')).toBe(false);
      expect(message.startsWith('Scenario file bad.json is invalid at $')).toBe(true);
    }
  });
});

describe('parseScenarioText', () => {
  it('reports invalid JSON with the source and the expectation', () => {
    const r = parseScenarioText('{"rules": [', 'file s.json');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('scenario-json');
      expect(r.error.message).toMatch(
        /^Scenario file s\.json is not valid JSON \(.+\); expected one JSON object at \$\.$/,
      );
    }
  });
});

describe('loadScenario', () => {
  const files: Record<string, string> = { 'ok.json': '{"rules":[]}', 'bad.json': '{"rules":[{}]}' };
  const read = async (p: string) => {
    const text = files[p];
    if (text === undefined) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
    return text;
  };

  it('resolves a built-in name first, then a file', async () => {
    const builtin = await loadScenario('deny', read);
    expect(builtin.ok && builtin.scenario.rules[0]?.behaviour.kind).toBe('deny');
    expect(await loadScenario('ok.json', read)).toEqual({ ok: true, scenario: { rules: [] } });
  });

  it('names the file in a validation error', async () => {
    const r = await loadScenario('bad.json', read);
    expect(!r.ok && r.error.message).toBe(
      'Scenario file bad.json is invalid at $.rules[0].behaviour: expected an object, found nothing.',
    );
  });

  it('offers the closest built-in for an unknown name, and says "no such file" for a missing path', async () => {
    const message = async (ref: string) => {
      const r = await loadScenario(ref, read);
      expect(!r.ok && r.error.code).toBe('scenario-unknown');
      return !r.ok ? r.error.message : '';
    };
    expect(await message('hangg')).toBe(
      'Scenario "hangg" is neither a file nor a built-in name; did you mean "hang"?',
    );
    // No near neighbour: the built-ins that contain the word, when they are few.
    expect(await message('flaky')).toMatch(
      /^Scenario "flaky" is neither .*; did you mean "[a-z0-9-]*flaky[a-z0-9-]*"( or "[a-z0-9-]+")*\?$/,
    );
    // Nothing like it: where the list is, never the whole list on one line.
    expect(await message('xyzzy-plugh-frobnicate')).toMatch(
      /; `mock-backend --help` lists the \d+ built-in names\.$/,
    );
    const missing = await loadScenario('dir/none.json', read);
    expect(!missing.ok && missing.error.message).toBe(
      'Scenario file dir/none.json cannot be read (no such file).',
    );
  });
});
