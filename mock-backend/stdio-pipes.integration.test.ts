/**
 * The stdio built-ins that close, reset or exit, read as a harness in another language reads
 * them: through plain OS pipes (a `python3` subprocess.PIPE reader, test-support/pipe-reader.py),
 * not the socket pairs Node's spawn hands a child. Each must look the same there as it does to a
 * Node harness: end of stdout, and the exit status the scenario names.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interceptRequest } from './engine-test-frames.js';
import { BUILTIN_SCENARIOS, startMockControl, type MockControl } from './index.js';
import { MOCK_PROCESS_MARGINS, SPAWN_TEST_TIMEOUT_MS } from './shells/test-support/stdio-process.js';

/**
 * How long after the end of stdout a process that closed stdout alone must still run, and within
 * which an exiting one has ended (its status follows its last close by a moment).
 */
const QUIET_MS = 1000;

const READER = fileURLToPath(new URL('./shells/test-support/pipe-reader.py', import.meta.url));

/** What the reader saw (pipe-reader.py prints it). */
interface PipeView {
  lines: string[];
  eof: boolean;
  eofMs: number | null;
  runningAfterEof: boolean;
  returncode: number;
  killedByReader: boolean;
}

function readThroughPipes(command: readonly string[], frame: string): Promise<PipeView> {
  const config = JSON.stringify({ command, frame, waitMs: MOCK_PROCESS_MARGINS.spawnMs, quietMs: QUIET_MS });
  const reader = spawn('python3', [READER, config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  reader.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  reader.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    reader.on('error', reject);
    reader.on('close', (code) => {
      if (code !== 0) reject(new Error(`pipe-reader.py exited ${code}: ${err}`));
      else resolve(JSON.parse(out) as PipeView);
    });
  });
}

/** How each built-in must look through a pipe: end of stdout, and the status it ends with. */
const EXPECTED: ReadonlyArray<{
  name: string;
  replies: number;
  runningAfterEof: boolean;
  returncode: number;
}> = [
  // stdout closed while the process lives on: EOF at once, the exit only after stdin ends.
  { name: 'stdio-close-stdout', replies: 0, runningAfterEof: true, returncode: 0 },
  { name: 'stdio-exit-before-reply', replies: 0, runningAfterEof: false, returncode: 3 },
  { name: 'stdio-exit-0-no-reply', replies: 0, runningAfterEof: false, returncode: 0 },
  { name: 'stdio-exit-after-reply', replies: 1, runningAfterEof: false, returncode: 1 },
  // Python reports death by a signal as minus the signal number.
  { name: 'stdio-die-by-signal', replies: 0, runningAfterEof: false, returncode: -9 },
  { name: 'stdio-refuse-to-start', replies: 0, runningAfterEof: false, returncode: 1 },
];

describe(
  'stdio close, reset and exit behaviours through plain OS pipes',
  { timeout: SPAWN_TEST_TIMEOUT_MS },
  () => {
    let control: MockControl;
    beforeAll(async () => {
      control = await startMockControl({ scenario: { rules: [] } });
    });
    afterAll(async () => {
      await control.close();
    });

    it('covers every stdio built-in whose behaviour closes, resets or exits', () => {
      const ending = new Set(['exit', 'signal', 'reset']);
      const names = Object.entries(BUILTIN_SCENARIOS)
        .filter(([, b]) => b.transports.includes('stdio'))
        .filter(
          ([, b]) =>
            b.scenario.process?.refuseToStart || b.scenario.rules.some((r) => ending.has(r.behaviour.kind)),
        )
        .map(([name]) => name);
      expect(EXPECTED.map((e) => e.name).sort()).toEqual(names.sort());
    });

    for (const expected of EXPECTED) {
      it(`${expected.name}: seen as the end of stdout, then exit status ${expected.returncode}`, async () => {
        control.setScenario(BUILTIN_SCENARIOS[expected.name]!.scenario);
        control.reset();
        const { command, args } = control.stdioCommand();
        const frame = JSON.stringify(interceptRequest({ eventId: 'evt-pipe' }));
        const view = await readThroughPipes([command, ...args], frame);
        expect({
          eof: view.eof,
          replies: view.lines.length,
          runningAfterEof: view.runningAfterEof,
          returncode: view.returncode,
          killedByReader: view.killedByReader,
        }).toEqual({
          eof: true,
          replies: expected.replies,
          runningAfterEof: expected.runningAfterEof,
          returncode: expected.returncode,
          killedByReader: false,
        });
      });
    }
  },
);
