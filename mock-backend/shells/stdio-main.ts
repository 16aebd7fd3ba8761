/**
 * The stdio mock process entry, for registrations and third-party harnesses:
 *   node --import tsx mock-backend/shells/stdio-main.ts --control-url http://127.0.0.1:PORT/
 *   node --import tsx mock-backend/shells/stdio-main.ts --scenario <file|built-in name>
 * Like a bin file it is the one place of its process that reads argv and env. Its static import
 * graph is kept small (no zod, no msw, no engine) because per_event harnesses spawn it per event.
 */
import { processStdioHost } from './process-host.js';
import { parseStdioArgs } from './stdio-args.js';
import { EXIT_NO_SCENARIO } from './stdio-shell.js';
import { startStdioMock } from './stdio-mock.js';

const source = parseStdioArgs(process.argv.slice(2), process.env);
const started =
  source.kind === 'error'
    ? { ok: false as const, message: source.message }
    : await startStdioMock(
        processStdioHost(process),
        source.kind === 'control' ? source : { ...source, cwd: process.cwd() },
      );
if (!started.ok) {
  process.stderr.write(`mock-backend: ${started.message}\n`);
  process.exitCode = EXIT_NO_SCENARIO;
}
