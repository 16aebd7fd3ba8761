/**
 * `-- node path/to/driver.mjs`: a script path that does not exist is the commonest driver command
 * mistake (a path that only exists in an installed project, or in a clone). Node would start and
 * print a module-not-found stack trace; the suite says it in one sentence before starting anything.
 */
import { existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';

/** Node flags that take the next argument as their value. */
const VALUE_FLAGS = new Set([
  '-r',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '-C',
  '--conditions',
  '--env-file',
  '--input-type',
  '--title',
]);

/** Flags after which node runs no script file. */
const NO_SCRIPT = new Set([
  '-e',
  '--eval',
  '-p',
  '--print',
  '-i',
  '--interactive',
  '-v',
  '--version',
  '-h',
  '--help',
]);

function isNode(program: string): boolean {
  return program === process.execPath || /^node(?:\.exe)?$/i.test(basename(program));
}

/** The script a `node ...` driver command runs, when it names one. */
export function nodeScriptOf(command: readonly string[]): string | undefined {
  const [program, ...args] = command;
  if (program === undefined || !isNode(program)) return undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-') return undefined;
    if (!arg.startsWith('-')) return arg;
    if (NO_SCRIPT.has(arg)) return undefined;
    if (VALUE_FLAGS.has(arg)) i++;
  }
  return undefined;
}

/** The sentence for a `node <script>` driver command whose script does not exist; undefined otherwise. */
export function missingDriverScript(command: readonly string[], cwd: string): string | undefined {
  const script = nodeScriptOf(command);
  if (script === undefined || existsSync(resolve(cwd, script))) return undefined;
  return `the driver script "${script}" does not exist (looked for ${resolve(cwd, script)}); fix the path after "--" (relative paths start at the directory you run ahp-conformance in).`;
}
