import { readFile } from 'node:fs/promises';
import { bounded } from '../file-system-bound.js';
import { UsageError } from '../io.js';
import { isJsonObject, type JsonObject } from '../../protocol/json.js';

/** A config file's content: the same options as the flags, under their option names. */
export interface ConfigFile {
  path: string;
  /** As the user wrote it, for messages. */
  shown: string;
  values: JsonObject;
}

/**
 * Reads a `--config` JSON file. Its keys are the option names (`seed`, `timeoutScale`,
 * `reporters`, `knownFailures`...); paths inside it are relative to the file itself.
 */
export async function readConfigFile(path: string, shown: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await bounded(readFile(path, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(
      `cannot read the config file "${shown}" (${code}); check the path given to --config.`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new UsageError(
      `the config file "${shown}" is not valid JSON (${(error as Error).message}); fix it or drop --config.`,
    );
  }
  if (!isJsonObject(value)) {
    throw new UsageError(
      `the config file "${shown}" must hold one JSON object of options, e.g. {"seed": 1234, "reporters": ["junit"]}.`,
    );
  }
  return { path, shown, values: value };
}
