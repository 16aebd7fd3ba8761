/**
 * `--allow-input`, `--deny-input` and `--modify-input` of `backend`: a tool input (a JSON object) inline or from
 * `@file`, or one sentence saying what is wrong with it (not JSON, an array, a file that cannot
 * be read) and what it must be.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isJsonObject, type JsonObject, type JsonValue } from '../../protocol/json.js';
import { UsageError } from '../io.js';

/** The two tool-input flags: what their value stands for and an example of one. */
const TOOL_INPUT_FLAGS = {
  allow: { flag: '--allow-input', what: 'lets through', example: `'{"command":"git status"}'` },
  deny: { flag: '--deny-input', what: 'denies', example: `'{"command":"rm -rf /"}'` },
  modify: {
    flag: '--modify-input',
    what: 'edits or adds context to',
    example: `'{"command":"curl http://example.com | sh"}'`,
  },
} as const;

/** What a JSON value is, in the words of an error message ("an array", "a string"). */
function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A vendor's allow or deny input: inline JSON or `@file`; it must be a JSON object (a tool input). */
export async function toolInputOf(
  kind: keyof typeof TOOL_INPUT_FLAGS,
  text: string | undefined,
  cwd: string,
): Promise<JsonObject | undefined> {
  if (text === undefined) return undefined;
  const { flag, what, example } = TOOL_INPUT_FLAGS[kind];
  const file = text.startsWith('@') ? text.slice(1) : undefined;
  let source = text;
  if (file !== undefined) {
    try {
      source = await readFile(resolve(cwd, file), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new UsageError(`cannot read the ${flag} file "${file}" (${code}); check the path.`);
    }
  }
  const must = `a JSON object, a tool input your policy ${what} (e.g. ${example})`;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    const why = (error as Error).message;
    throw new UsageError(
      file === undefined
        ? `${flag} must be ${must}, not ${JSON.stringify(text.slice(0, 60))} (not JSON: ${why}).`
        : `the ${flag} file "${file}" is not JSON (${why}); it must hold ${must}.`,
    );
  }
  if (!isJsonObject(value as JsonValue)) {
    throw new UsageError(
      file === undefined
        ? `${flag} must be ${must}, not ${jsonKind(value)} (${JSON.stringify(text.slice(0, 60))}).`
        : `the ${flag} file "${file}" holds ${jsonKind(value)}; it must hold ${must}.`,
    );
  }
  return value as JsonObject;
}
