/**
 * What every harness case does around its body: it runs only when the driver announces what it
 * needs (`features.ts`), it stops the run instead of blaming the harness when the driver itself
 * ends (exits, stops answering), and a failing case carries what people read first: the driver's
 * stderr during the case and the frames the mock recorded (bounded; the transcript in full in the
 * evidence).
 */
import type { JsonValue } from '../../../protocol/json.js';
import { stderrTail } from '../../common/case-meta.js';
import type { CaseContext } from '../../common/case.js';
import { endsDriverConnection } from '../../driver/index.js';
import type { FixtureState } from './fixture.js';
import { frameTranscript } from './transcript.js';
import { bytesText, decodeFrames, type WireFrame } from './wire-records.js';

/** Frames shown under a failing case on the console; the evidence has them all. */
export const SHOWN_FRAMES = 12;
/** Characters of one shown frame's bytes. */
const FRAME_TEXT_CHARS = 160;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > FRAME_TEXT_CHARS ? `${flat.slice(0, FRAME_TEXT_CHARS - 3)}...` : flat;
}

/** One line per frame the mock received, and one per write it answered with. Pure. */
export function frameLines(frames: readonly WireFrame[]): string[] {
  return frames.flatMap((f) => [
    `> #${f.delivery} ${f.transport} conn ${f.connectionId} at ${Math.round(f.atMs)} ms: ${clip(bytesText(f.bytes))}`,
    ...f.actions.flatMap((a) =>
      a.type === 'write' ? [`<   mock wrote after ${a.afterMs} ms: ${clip(bytesText(a.bytes))}`] : [],
    ),
  ]);
}

/**
 * The frames that arrived since the case began (`sinceWallMs`, on the wall clock every process of
 * the machine shares), in delivery order per mock: stdio processes each have a monotonic clock of
 * their own, so arrival times do not order frames across processes, delivery numbers do. A mock
 * the case did not use still holds an earlier case's frames, which are not this case's evidence.
 */
export function caseFrames(perMock: readonly WireFrame[][], sinceWallMs: number): WireFrame[] {
  return perMock.flatMap((frames) =>
    frames.filter((f) => f.atWallMs >= sinceWallMs).sort((a, b) => a.delivery - b.delivery),
  );
}

function recordedFrames(state: FixtureState, sinceWallMs: number): WireFrame[] {
  const mocks = [state.mocks.control, state.mocks.http];
  return caseFrames(
    mocks.map((mock) => decodeFrames(mock.recordings())),
    sinceWallMs,
  );
}

/** Attaches the stderr written since `stderrMark` and the frames recorded since `sinceWallMs` to a failing case. */
export function attachFailureDiagnostics(
  state: FixtureState,
  ctx: CaseContext,
  marks: { stderr: number; sinceWallMs: number },
  options: { transcript: boolean },
): void {
  const frames = recordedFrames(state, marks.sinceWallMs);
  const lines = frameLines(frames.slice(0, SHOWN_FRAMES));
  ctx.diagnostics({
    stderrTail: stderrTail(state.client.stderrSince(marks.stderr)),
    frames: lines,
    framesTotal: frames.length,
  });
  if (options.transcript) ctx.evidence({ transcript: frames.map(frameTranscript) as JsonValue });
}

/**
 * Runs `body` for one case on `state`: a driver that ended ends the case unjudged (the run
 * stops); any other failure gets its diagnostics and is rethrown.
 */
export async function guardCase(
  state: () => FixtureState,
  ctx: CaseContext,
  body: () => Promise<void>,
  options: { transcript: boolean } = { transcript: true },
): Promise<void> {
  const client = state().client;
  const mark = client.stderrMark();
  const sinceWallMs = Date.now();
  try {
    await body();
  } catch (error) {
    const meta = ctx.vitest.task.meta.ahp;
    // An untested or blocked case ended on purpose, whatever became of the driver since.
    if (meta?.untested !== undefined || meta?.blocked !== undefined || meta?.targetStopped !== undefined) {
      throw error;
    }
    const now = state();
    const stopped = endsDriverConnection(error) ?? endsDriverConnection(now.client.ended);
    if (stopped !== undefined) {
      const stderr = 'stderr' in stopped && stopped.stderr !== '' ? stopped.stderr : now.client.stderrText();
      ctx.targetStopped({ message: stopped.message, stderrTail: stderrTail(stderr) });
    }
    // A fresh driver started during the case wrote all its stderr during it.
    attachFailureDiagnostics(now, ctx, { stderr: now.client === client ? mark : 0, sinceWallMs }, options);
    throw error;
  }
}
