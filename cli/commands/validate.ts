/**
 * `ahp-conformance validate <file>...`: checks registration documents and wire messages (single
 * JSON files or NDJSON transcripts) with the protocol/ validators, each violation with its JSON
 * path and requirement ID. Exit 0 all valid, 1 any invalid, 2 any file unreadable.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Violation } from '../../protocol/index.js';
import { EXIT, writeLine, type CliIo } from '../io.js';
import { parseArgv } from '../options/argv.js';
import type { Command } from './registry.js';
import { judgeFile, type ItemVerdict } from './validate-document.js';
import { counted } from '../report/count.js';

const VALIDATE_FLAGS = { '--quiet': { key: 'quiet', kind: 'boolean' } } as const;

const HELP = `Usage: ahp-conformance validate [--quiet] <file>...

Checks AHP registration documents and wire messages against the draft's rules. The kind of each
document is detected from its content: a registration document (protocolVersion + hooks), an
intercept request or response, an observe notification, a capabilities request or response.
A .jsonl/.ndjson file (or any multi-line file that is not one JSON value) is read as NDJSON, one
message per line with stdio framing checked; a response is judged at the boundary of the request
with the same id earlier in the file.

Each violation is printed with its JSON path and requirement ID.
  --quiet   print only invalid files and the totals

Exit codes: 0 every file valid, 1 some file invalid, 2 a file could not be read.`;

function formatViolation(v: Violation, line: number | undefined, level: 'error' | 'warning'): string {
  const where = line === undefined ? v.path : `line ${line} ${v.path}`;
  return `  ${level === 'warning' ? 'warning: ' : ''}${where}: ${v.message} [${v.requirement}]`;
}

function describeFile(name: string, items: ItemVerdict[]): { valid: boolean; lines: string[] } {
  const valid = items.every((i) => i.violations.length === 0);
  const kinds = [...new Set(items.map((i) => i.kind))].join(', ');
  const what =
    items.length === 1 && items[0]?.line === undefined ? kinds : `${items.length} NDJSON lines (${kinds})`;
  const lines = [`${name}: ${valid ? 'valid' : 'INVALID'} ${what}`];
  for (const item of items) {
    for (const v of item.violations) lines.push(formatViolation(v, item.line, 'error'));
    for (const w of item.warnings) lines.push(formatViolation(w, item.line, 'warning'));
  }
  return { valid, lines };
}

/** The `validate` command. */
export const validateCommand: Command = {
  name: 'validate',
  help: HELP,
  flags: Object.keys(VALIDATE_FLAGS),
  async run(args, io: CliIo) {
    const argv = parseArgv(args, {
      flags: VALIDATE_FLAGS,
      positionals: { name: 'file to validate (e.g. validate registration.json)', min: 1 },
    });
    const quiet = argv.values.quiet === true;
    let invalid = 0;
    let unreadable = 0;
    for (const name of argv.positionals) {
      let bytes: Uint8Array;
      try {
        bytes = await readFile(resolve(io.cwd, name));
      } catch (error) {
        unreadable++;
        const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
        writeLine(io.stderr, `ahp-conformance validate: cannot read "${name}" (${code}); check the path.`);
        continue;
      }
      const { valid, lines } = describeFile(name, judgeFile(bytes, name));
      if (!valid) invalid++;
      if (!valid || !quiet) writeLine(io.stdout, lines.join('\n'));
    }
    const checked = argv.positionals.length - unreadable;
    writeLine(
      io.stdout,
      `${counted(checked, 'file')} checked: ${checked - invalid} valid, ${invalid} invalid${unreadable > 0 ? `; ${unreadable} unreadable` : ''}.`,
    );
    if (unreadable > 0) return EXIT.usage;
    return invalid > 0 ? EXIT.conformanceFailure : EXIT.ok;
  },
};
