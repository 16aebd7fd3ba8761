import { readFileSync } from 'node:fs';
import { COMMANDS } from './commands/index.js';
import { EXIT, TargetError, UsageError, writeLine, type CliIo } from './io.js';

function toolVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'Usage: ahp-conformance <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `ahp-conformance <command> --help` for the options of a command.',
    'Exit codes: 0 no MUST failed, 1 conformance failures, 2 usage or configuration error, 3 the target could not be exercised.',
  ].join('\n');
}

/** The whole CLI as a function of its I/O: returns the exit code, never throws for user input. */
export async function run(io: CliIo): Promise<number> {
  const [name, ...rest] = io.argv;
  // Asked for, help is output (stdout, exit 0); a bare call is a usage error, whose text goes
  // where errors go (stderr, exit 2), so a CI step missing its command fails visibly.
  if (name === undefined) {
    writeLine(io.stderr, usage());
    return EXIT.usage;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    writeLine(io.stdout, usage());
    return EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    writeLine(io.stdout, toolVersion());
    return EXIT.ok;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    const known = COMMANDS.map((c) => c.name).join(', ');
    writeLine(io.stderr, `ahp-conformance: unknown command "${name}"; use one of: ${known}.`);
    return EXIT.usage;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    const beforeDashes = rest.indexOf('--') === -1 ? rest : rest.slice(0, rest.indexOf('--'));
    if (beforeDashes.includes('--help') || beforeDashes.includes('-h')) {
      writeLine(io.stdout, command.help);
      return EXIT.ok;
    }
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      writeLine(io.stderr, `ahp-conformance ${name}: ${error.message}`);
      return EXIT.usage;
    }
    if (error instanceof TargetError) {
      writeLine(io.stderr, `ahp-conformance ${name}: ${error.message}`);
      for (const line of error.details) writeLine(io.stderr, line);
      return EXIT.targetUnreachable;
    }
    throw error;
  }
}
