import { closestName } from '../../protocol/closest-name.js';
import { UsageError } from '../io.js';

/** How a flag takes its value: alone, with one value, or with one or more values (repeatable). */
export type FlagKind = 'boolean' | 'value' | 'list';

/** One flag a command accepts; `key` names the option it sets. */
export interface FlagSpec {
  key: string;
  kind: FlagKind;
  /** The value's placeholder in messages, e.g. `<n>`. */
  placeholder?: string;
}

/** What a command accepts on its command line. */
export interface ArgvSpec {
  /** Keyed by the flag as typed, e.g. `--seed`. */
  flags: Readonly<Record<string, FlagSpec>>;
  /** Plain arguments (files for `validate`); absent: none are accepted. */
  positionals?: { name: string; min: number };
  /** A command after `--` (the driver or backend under test); absent: `--` is refused. */
  trailing?: { name: string; example: string; whenAbsent: string };
}

/** The tokens of a command line, sorted by kind; values are still raw strings. */
export interface ParsedArgv {
  values: Record<string, string | true | string[]>;
  positionals: string[];
  /** The argv after `--`, or undefined when there was no `--`. */
  trailing: string[] | undefined;
}

function unknownFlag(arg: string, spec: ArgvSpec): UsageError {
  const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
  const guess = closestName(name, Object.keys(spec.flags));
  const hint = guess ? `did you mean ${guess}?` : 'see --help for the options of this command.';
  return new UsageError(`unknown option "${name}"; ${hint}`);
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/**
 * Splits a command line into flags, positionals and the command after `--`. Only flags the spec
 * names are accepted; `--flag=value` and `--flag value` are equivalent; a list flag may repeat,
 * take comma-separated values, and (for commands without positionals) several values in a row.
 */
export function parseArgv(args: readonly string[], spec: ArgvSpec): ParsedArgv {
  const values: ParsedArgv['values'] = {};
  const positionals: string[] = [];
  let trailing: string[] | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      trailing = args.slice(i + 1);
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      if (!spec.positionals) {
        const where = spec.trailing
          ? `put the ${spec.trailing.name} after "--" (e.g. ${spec.trailing.example})`
          : 'this command takes only options (see --help)';
        throw new UsageError(`unexpected argument "${arg}"; ${where}.`);
      }
      positionals.push(arg);
      continue;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const flag = spec.flags[name];
    if (!flag) throw unknownFlag(arg, spec);
    if (flag.kind === 'boolean') {
      if (eq !== -1) throw new UsageError(`${name} takes no value; write it alone.`);
      values[flag.key] = true;
      continue;
    }
    const needsValue = (): never => {
      throw new UsageError(`${name} needs a value: ${name} ${flag.placeholder ?? '<value>'} (see --help).`);
    };
    let raw = eq === -1 ? args[i + 1] : arg.slice(eq + 1);
    if (eq === -1) {
      if (raw === undefined || raw === '--' || (raw.startsWith('-') && raw.length > 1 && !/^-\d/.test(raw)))
        needsValue();
      i++;
    }
    raw = raw as string;
    if (raw.trim() === '') needsValue();
    if (flag.kind === 'value') {
      if (flag.key in values) throw new UsageError(`${name} is given twice; pass it once.`);
      values[flag.key] = raw;
      continue;
    }
    const list = [...((values[flag.key] as string[] | undefined) ?? []), ...splitList(raw)];
    // `--only A B C`: greedy only where no positional could be meant.
    while (
      !spec.positionals &&
      eq === -1 &&
      i + 1 < args.length &&
      !(args[i + 1] as string).startsWith('-')
    ) {
      list.push(...splitList(args[++i] as string));
    }
    values[flag.key] = list;
  }
  if (trailing !== undefined) {
    if (!spec.trailing) {
      throw new UsageError('this command takes no command after "--"; remove "--" and what follows it.');
    }
    if (trailing.length === 0 || (trailing[0] as string).trim() === '') {
      throw new UsageError(
        `nothing follows "--": put the ${spec.trailing.name} after it (e.g. ${spec.trailing.example}), or ${spec.trailing.whenAbsent}.`,
      );
    }
  }
  if (spec.positionals && positionals.length < spec.positionals.min) {
    throw new UsageError(`give at least ${spec.positionals.min} ${spec.positionals.name} (see --help).`);
  }
  return { values, positionals, trailing };
}
