/**
 * Which step of a case a frame belongs to, in one place for everything that finds a step's frames
 * or gives a step its scripted reply. Matching never depends on the field under test: a frame
 * belongs to the step whose identity any of its identity fields carries (the JSON-RPC id,
 * `event.id`, `event.call.id`, the older `event.tool.callId`), and a frame that identifies with no
 * step of the case, nor with another call the suite raised, belongs to the step during which it
 * arrived. That holds because a lane's mocks serve one case at a time, reset before it, and its
 * steps run one after another. Whether each identity field is where it belongs is judged by the
 * cases of its own requirement. Pure.
 */
import type { JsonValue } from '../../../protocol/json.js';

/** The identity fields of a received frame (a WireFrame has them all). */
export interface IdentifiedFrame {
  jsonrpcId?: JsonValue;
  eventId?: string;
  callId?: string;
  /** `event.tool.callId`, where revision "0.1" kept the call id. */
  toolCallId?: string;
  /** Arrival on the wall clock, ms. */
  atWallMs: number;
}

/** The string values a frame identifies itself by, in field order. */
export function frameIdentities(frame: IdentifiedFrame): string[] {
  const values = [frame.jsonrpcId, frame.eventId, frame.callId, frame.toolCallId];
  return values.filter((v): v is string => typeof v === 'string');
}

/** True when any identity field of the frame carries one of `ids`. */
export function identifiesAs(frame: IdentifiedFrame, ids: readonly string[]): boolean {
  return frameIdentities(frame).some((value) => ids.includes(value));
}

/** One step of a case as its frames are attributed. */
export interface StepIdentity {
  /** The values its frames may carry: the suggested event id, the call id, the harness's own event id. */
  ids: string[];
  /** When the step began, on the wall clock (ms); absent until it begins. */
  startedAtWallMs?: number;
}

/** The ids the suite gives the n-th event of a run (kit/run-step.ts `stepEvent`). */
export function suiteIds(prefix: string, n: number): { eventId: string; callId: string } {
  return { eventId: `evt-${prefix}-${n}`, callId: `call-${prefix}-${n}` };
}

/**
 * True for an id the suite gave some event of this run, exactly: a frame carrying one that is no
 * step's own is a straggler of another case (a late retry that reached the mock after its reset).
 * An id a harness made from one of them (a retry renamed `evt-…-3-retry1`) is the harness's own.
 */
export function issuedBySuite(prefix: string): (id: string) => boolean {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const ours = new RegExp(`^(evt|call)-${escaped}-\\d+$`);
  return (id) => ours.test(id);
}

/** The steps of one case, whose frames it attributes. */
export class CaseSteps {
  readonly steps: StepIdentity[];

  /** `ids[i]`: the identities of step i, known before any step runs. */
  constructor(
    ids: readonly (readonly string[])[],
    private readonly issued: (id: string) => boolean = () => false,
  ) {
    this.steps = ids.map((i) => ({ ids: [...i] }));
  }

  /** Notes that step `index` begins now (before its call is raised). */
  begin(index: number, atWallMs = Date.now()): void {
    (this.steps[index] as StepIdentity).startedAtWallMs = atWallMs;
  }

  /** Adds an id the harness reported for step `index` (the event id it used). */
  addId(index: number, id: string | undefined): void {
    const step = this.steps[index] as StepIdentity;
    if (id !== undefined && !step.ids.includes(id)) step.ids.push(id);
  }

  /** The index of the step the frame belongs to, or undefined when it belongs to none. */
  stepOf(frame: IdentifiedFrame): number | undefined {
    const named = this.steps.findIndex((s) => identifiesAs(frame, s.ids));
    if (named >= 0) return named;
    if (frameIdentities(frame).some(this.issued)) return undefined;
    let during: number | undefined;
    this.steps.forEach((s, i) => {
      if (s.startedAtWallMs !== undefined && s.startedAtWallMs <= frame.atWallMs) during = i;
    });
    return during;
  }

  /** A filter for the frames of step `index`. */
  of(index: number): (frame: IdentifiedFrame) => boolean {
    return (frame) => this.stepOf(frame) === index;
  }
}
