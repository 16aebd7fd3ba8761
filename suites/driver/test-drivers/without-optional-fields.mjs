// Runs the driver command given as arguments and passes its lines through, with every optional
// field of an invoke answer removed (docs/driver-protocol.md): the least a driver may report.
// The suite must then credit no pass to a requirement whose checks read only those fields.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const OPTIONAL_RESULT = ['ending', 'eventId'];
const OPTIONAL_AUDIT = [
  'failureClass',
  'policy',
  'synthetic',
  'mode',
  'subscriptionIndex',
  'boundaryCopy',
  'failureCode',
  'attempts',
  'durationMs',
];

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

/** The line without the optional fields, when it answers an invoke (its result has an audit). */
function stripped(line) {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return line;
  }
  const result = message?.result;
  if (!result || !Array.isArray(result.audit)) return line;
  for (const key of OPTIONAL_RESULT) delete result[key];
  for (const entry of result.audit) for (const key of OPTIONAL_AUDIT) delete entry[key];
  return JSON.stringify(message);
}

createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => {
  process.stdout.write(`${stripped(line)}\n`);
});
