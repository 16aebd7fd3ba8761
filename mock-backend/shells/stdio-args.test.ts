import { describe, expect, it } from 'vitest';
import { CONTROL_URL_ENV, parseStdioArgs } from './stdio-args.js';

describe('parseStdioArgs', () => {
  it('takes the control URL or a scenario, as flag pairs or --flag=value', () => {
    expect(parseStdioArgs(['--control-url', 'http://127.0.0.1:5/'], {})).toEqual({
      kind: 'control',
      url: 'http://127.0.0.1:5/',
    });
    expect(parseStdioArgs(['--scenario=deny'], {})).toEqual({ kind: 'scenario', ref: 'deny' });
  });

  it('falls back to the environment variable, and an explicit scenario wins over it', () => {
    const env = { [CONTROL_URL_ENV]: 'http://127.0.0.1:6/' };
    expect(parseStdioArgs([], env)).toEqual({ kind: 'control', url: 'http://127.0.0.1:6/' });
    expect(parseStdioArgs(['--scenario', 'hang'], env)).toEqual({ kind: 'scenario', ref: 'hang' });
  });

  it('explains every problem in one sentence', () => {
    const message = (argv: string[], env = {}) => {
      const r = parseStdioArgs(argv, env);
      return r.kind === 'error' ? r.message : undefined;
    };
    expect(message([])).toBe(
      `no scenario: pass --control-url <url>, --scenario <file|name>, or set ${CONTROL_URL_ENV}.`,
    );
    expect(message(['--verbose'])).toMatch(/^unknown argument "--verbose"/);
    expect(message(['--scenario'])).toBe('--scenario needs a value.');
    expect(message(['--scenario', 'a', '--control-url', 'http://x/'])).toMatch(/exclude each other/);
    expect(message(['--control-url', 'not a url'])).toMatch(/is not a URL/);
    expect(message(['--control-url', 'https://x/'])).toMatch(/must use http:/);
  });
});
