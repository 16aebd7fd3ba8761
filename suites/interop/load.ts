/**
 * Reads the authors' interop scenario files from a path the user gives (one file, or a folder
 * holding some of the four known names) and checks them against format.ts. A file this runner
 * cannot read faithfully is refused whole, in one sentence naming the file, the scenario and the
 * field, so that a newer upstream format never runs half-understood.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { z } from 'zod';
import {
  INTEROP_FILE_NAMES,
  INTEROP_FILES,
  interopFileSchema,
  KNOWN_EFFECT_KINDS,
  type CatalogueScenario,
  type InteropFileName,
  type InterceptScenario,
  type LifecycleScenario,
} from './format.js';

/** Input the runner cannot use; its message is one sentence naming the input and the fix. */
export class InteropInputError extends Error {
  override name = 'InteropInputError';
}

/** One loaded file: its set name (the file stem) and its scenarios, validated. */
export type InteropSet =
  | { set: 'scenarios'; file: string; scenarios: InterceptScenario[] }
  | { set: 'catalogue-scenarios'; file: string; scenarios: CatalogueScenario[] }
  | {
      set: 'lifecycle-scenarios' | 'observation-chain-scenarios';
      file: string;
      scenarios: LifecycleScenario[];
    };

/** The set name of a known file: its stem. */
export function setOf(name: InteropFileName): InteropSet['set'] {
  return name.replace(/\.json$/, '') as InteropSet['set'];
}

function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
}

/** One zod issue as the end of a sentence about `where`. */
function issueText(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    const field = pathText([...issue.path, issue.keys[0] ?? '']);
    return `has an unknown field "${field}" that this runner does not know how to run`;
  }
  if (issue.code === 'invalid_value' && issue.path[issue.path.length - 1] === 'op') {
    return `has an unknown step op at "${pathText(issue.path)}" (known: ${issue.values.join(', ')})`;
  }
  return `has an unusable field "${pathText(issue.path)}" (${issue.message})`;
}

const FIX =
  "point --interop at the files of the protocol repository's interop folder this version reads, or update ahp-conformance";

/** An accepted scenario whose response uses an effect kind the draft does not define. */
function unknownEffectKind(scenario: InterceptScenario): string | undefined {
  if (scenario.expected === undefined) return undefined;
  const result = scenario.response.result;
  const effects =
    typeof result === 'object' && result !== null ? (result as { effects?: unknown }).effects : undefined;
  if (!Array.isArray(effects)) return undefined;
  for (const [i, effect] of effects.entries()) {
    const type =
      typeof effect === 'object' && effect !== null ? (effect as { type?: unknown }).type : undefined;
    if (typeof type !== 'string' || !KNOWN_EFFECT_KINDS.includes(type)) {
      return `has an unknown effect kind ${JSON.stringify(type ?? null)} at "response.result.effects[${i}].type" in a scenario it must accept`;
    }
  }
  return undefined;
}

/** Validates the content of one known file; throws InteropInputError naming the first problem. */
export function parseInteropFile(name: InteropFileName, shown: string, content: unknown): InteropSet {
  const file = interopFileSchema.safeParse(content);
  if (!file.success) {
    const issue = file.error.issues[0] as z.core.$ZodIssue;
    throw new InteropInputError(`${shown} ${issueText(issue)}; ${FIX}.`);
  }
  const schema = INTEROP_FILES[name];
  const scenarios: unknown[] = [];
  const seen = new Set<string>();
  for (const raw of file.data.scenarios) {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0] as z.core.$ZodIssue;
      throw new InteropInputError(`${shown}: scenario "${raw.id}" ${issueText(issue)}; ${FIX}.`);
    }
    if (seen.has(raw.id)) {
      throw new InteropInputError(
        `${shown}: scenario "${raw.id}" appears twice; each id must be unique in its file.`,
      );
    }
    seen.add(raw.id);
    if (name === 'scenarios.json') {
      const scenario = parsed.data as InterceptScenario;
      const kind = unknownEffectKind(scenario);
      if (kind !== undefined) throw new InteropInputError(`${shown}: scenario "${raw.id}" ${kind}; ${FIX}.`);
      if ((scenario.expected === undefined) === (scenario.expectError === undefined)) {
        throw new InteropInputError(
          `${shown}: scenario "${raw.id}" has ${scenario.expected ? 'both "expected" and "expectError"' : 'neither "expected" nor "expectError"'}; give exactly one.`,
        );
      }
    }
    scenarios.push(parsed.data);
  }
  return { set: setOf(name), file: shown, scenarios } as InteropSet;
}

async function readJson(path: string, shown: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InteropInputError(
      `cannot read ${shown} (${(error as Error).message}); give a readable scenario file.`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InteropInputError(
      `${shown} is not JSON (${(error as Error).message}); give the scenario file as published.`,
    );
  }
}

function knownName(name: string): InteropFileName | undefined {
  return (INTEROP_FILE_NAMES as readonly string[]).includes(name) ? (name as InteropFileName) : undefined;
}

/**
 * Loads `path` (resolved against `cwd`): a known file, or a folder, of which every known file is
 * read (at least one must be there). Sets come in the order of INTEROP_FILE_NAMES.
 */
export async function loadInterop(path: string, cwd = process.cwd()): Promise<InteropSet[]> {
  const full = resolve(cwd, path);
  let info;
  try {
    info = await stat(full);
  } catch {
    throw new InteropInputError(
      `--interop: "${path}" does not exist; give the interop folder of a checkout of the protocol repository, or one of its scenario files.`,
    );
  }
  if (info.isDirectory()) {
    const present = new Set(await readdir(full));
    const names = INTEROP_FILE_NAMES.filter((n) => present.has(n));
    if (names.length === 0) {
      throw new InteropInputError(
        `--interop: the folder "${path}" holds none of ${INTEROP_FILE_NAMES.join(', ')}; give the protocol repository's interop folder.`,
      );
    }
    const sets: InteropSet[] = [];
    for (const name of names) {
      const shown = join(path, name);
      sets.push(parseInteropFile(name, shown, await readJson(join(full, name), shown)));
    }
    return sets;
  }
  const name = knownName(basename(full));
  if (name === undefined) {
    throw new InteropInputError(
      `--interop: "${path}" is not one of ${INTEROP_FILE_NAMES.join(', ')}; give one of those files or the folder that holds them.`,
    );
  }
  return [parseInteropFile(name, path, await readJson(full, path))];
}
