/**
 * Reading scenarios: JSON text or a value in, a typed Scenario or ONE sentence out. The sentence
 * names the source (file or built-in), the JSON path and what was expected there.
 */
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { closestName } from '../protocol/closest-name.js';
import { childPath } from '../protocol/json.js';
import { BUILTIN_SCENARIOS, builtinNames } from './builtins.js';
import type { Scenario } from './model.js';
import { scenarioSchema } from './scenario-schema.js';

/** Why a scenario could not be used; `message` is the one sentence to show. */
export interface ScenarioError {
  code: 'scenario-unreadable' | 'scenario-json' | 'scenario-invalid' | 'scenario-unknown';
  message: string;
  /** JSON path of the problem (`$` for the whole document). */
  path?: string;
  expected?: string;
}

export type ScenarioParse = { ok: true; scenario: Scenario } | { ok: false; error: ScenarioError };

/** Parses scenario JSON text; `source` names it in the error sentence (e.g. the file path). */
export function parseScenarioText(text: string, source: string): ScenarioParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    return {
      ok: false,
      error: {
        code: 'scenario-json',
        path: '$',
        expected: 'one JSON object',
        message: `Scenario ${source} is not valid JSON (${detail}); expected one JSON object at $.`,
      },
    };
  }
  return parseScenarioValue(value, source);
}

/** Validates an already-parsed value as a scenario. */
export function parseScenarioValue(value: unknown, source: string): ScenarioParse {
  const result = scenarioSchema.safeParse(value, { reportInput: true });
  if (result.success) return { ok: true, scenario: result.data as Scenario };
  const issue = pickIssue(result.error.issues);
  const { path, expected, found } = describeIssue(issue);
  const foundText = found === undefined ? '' : `, found ${found}`;
  return {
    ok: false,
    error: {
      code: 'scenario-invalid',
      path,
      expected,
      message: `Scenario ${source} is invalid at ${path}: expected ${expected}${foundText}.`,
    },
  };
}

/**
 * What to offer for an unknown name: the built-in it most likely meant, else the built-ins whose
 * names contain it, else where the list is (one line of every name is unreadable).
 */
function builtinHint(ref: string): string {
  const names = builtinNames();
  const closest = closestName(ref, names);
  if (closest !== undefined) return `did you mean "${closest}"?`;
  const containing = ref.length >= 3 ? names.filter((n) => n.includes(ref.toLowerCase())) : [];
  if (containing.length > 0 && containing.length <= 4) {
    return `did you mean ${containing.map((n) => `"${n}"`).join(' or ')}?`;
  }
  return `\`mock-backend --help\` lists the ${names.length} built-in names.`;
}

/**
 * Resolves `--scenario <file|name>`: a built-in name first, else a file. An unknown name that does
 * not look like a path lists the built-in names.
 */
export async function loadScenario(
  ref: string,
  read: (path: string) => Promise<string> = (p) => readFile(p, 'utf8'),
): Promise<ScenarioParse> {
  const builtin = BUILTIN_SCENARIOS[ref];
  if (builtin) return parseScenarioValue(builtin.scenario, `built-in "${ref}"`);
  let text: string;
  try {
    text = await read(ref);
  } catch (e) {
    const notFound = (e as { code?: unknown }).code === 'ENOENT';
    if (notFound && !/[/\\]|\.json$/i.test(ref)) {
      return {
        ok: false,
        error: {
          code: 'scenario-unknown',
          message: `Scenario "${ref}" is neither a file nor a built-in name; ${builtinHint(ref)}`,
        },
      };
    }
    const reason = notFound ? 'no such file' : e instanceof Error ? e.message : String(e);
    return {
      ok: false,
      error: { code: 'scenario-unreadable', message: `Scenario file ${ref} cannot be read (${reason}).` },
    };
  }
  return parseScenarioText(text, `file ${ref}`);
}

type Issue = z.core.$ZodIssue;

// A misspelt key also shows up as a missing required one; the unknown key is the better hint.
function pickIssue(issues: readonly Issue[]): Issue {
  return issues.find((i) => i.code === 'unrecognized_keys') ?? (issues[0] as Issue);
}

function jsonPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((p, key) => childPath(p, typeof key === 'number' ? key : String(key)), '$');
}

function describeIssue(issue: Issue): { path: string; expected: string; found?: string } {
  const path = jsonPath(issue.path);
  const input = (issue as { input?: unknown }).input;
  const found = input === undefined ? 'nothing' : show(input);
  switch (issue.code) {
    case 'invalid_type':
      return { path, expected: article(issue.expected), found };
    case 'invalid_union': {
      const u = issue as Issue & { discriminator?: string; options?: unknown[] };
      if (u.discriminator !== undefined && u.options) {
        const value = isObject(input) ? input[u.discriminator] : undefined;
        return {
          path,
          expected: `"${u.discriminator}" to be one of ${u.options.map(show).join(', ')}`,
          found: value === undefined ? 'no "kind"' : show(value),
        };
      }
      return { path, expected: issue.message, found };
    }
    case 'unrecognized_keys':
      return {
        path: childPath(path, issue.keys[0] ?? '?'),
        expected: `no key ${issue.keys.map((k) => `"${k}"`).join(', ')} here (check the spelling)`,
      };
    case 'invalid_value':
      return { path, expected: `one of ${issue.values.map(show).join(', ')}`, found };
    case 'too_small':
    case 'too_big': {
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const op = issue.code === 'too_small' ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
      const what =
        issue.origin === 'array'
          ? 'an array with a length'
          : issue.origin === 'string'
            ? 'a length'
            : 'a number';
      return { path, expected: `${what} ${op} ${String(bound)}`, found };
    }
    case 'invalid_format':
      return { path, expected: `a valid ${issue.format} string`, found };
    default:
      return { path, expected: issue.message, found };
  }
}

function article(type: string): string {
  if (type === 'int') return 'an integer';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function show(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (isObject(v)) return 'an object';
  const text = JSON.stringify(v);
  return text === undefined ? String(v) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
