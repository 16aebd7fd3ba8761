/**
 * Arguments of the stdio mock entry (stdio-main.ts): where the scenario comes from. Pure, so the
 * entry stays a few lines and the rules are tested.
 */

/** Environment variable naming the control server, for harnesses that cannot add an argument. */
export const CONTROL_URL_ENV = 'AHP_MOCK_CONTROL_URL';

/** Where a stdio mock gets its scenario and engine state. */
export type StdioSource =
  { kind: 'control'; url: string } | { kind: 'scenario'; ref: string } | { kind: 'error'; message: string };

/**
 * `--control-url URL` or `--scenario <file|name>` (one of them); without either, the
 * AHP_MOCK_CONTROL_URL environment variable. An explicit `--scenario` wins over the variable.
 */
export function parseStdioArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): StdioSource {
  let controlUrl: string | undefined;
  let scenario: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    if (flag !== '--control-url' && flag !== '--scenario') {
      return {
        kind: 'error',
        message: `unknown argument "${arg}"; use --control-url <url> or --scenario <file|name>.`,
      };
    }
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') return { kind: 'error', message: `${flag} needs a value.` };
    if (flag === '--control-url') controlUrl = value;
    else scenario = value;
  }
  if (controlUrl !== undefined && scenario !== undefined) {
    return {
      kind: 'error',
      message:
        '--control-url and --scenario exclude each other: the control server owns the scenario (load it there) or drop --control-url.',
    };
  }
  if (controlUrl !== undefined) return checkUrl(controlUrl);
  if (scenario !== undefined) return { kind: 'scenario', ref: scenario };
  const fromEnv = env[CONTROL_URL_ENV];
  if (fromEnv) return checkUrl(fromEnv);
  return {
    kind: 'error',
    message: `no scenario: pass --control-url <url>, --scenario <file|name>, or set ${CONTROL_URL_ENV}.`,
  };
}

function checkUrl(url: string): StdioSource {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return {
      kind: 'error',
      message: `the control URL "${url}" is not a URL; expected e.g. http://127.0.0.1:4567/.`,
    };
  }
  if (parsed.protocol !== 'http:') {
    return {
      kind: 'error',
      message: `the control URL "${url}" must use http: (the control server listens on loopback).`,
    };
  }
  return { kind: 'control', url };
}
