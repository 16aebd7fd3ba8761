/**
 * What the mock keeps of one delivery: the frame's exact bytes, its arrival, and the engine's
 * decision with the attempt and PRNG state it was planned with, as one flat plain value. The
 * public entries (inbound, violations, outbound, see model.ts) are derived from it by
 * `deliveryEntries`, with the same fields and content as the step saw: the fields a read derives
 * again (kind, method, ids, tool name) come from decoding the same bytes, and the outbound actions
 * and the behaviour carried out from planning the decision again, both pure. A delivery so kept
 * is small and holds little besides the frame's bytes, which matters to a mock that answers many
 * thousands of frames and is read a few times.
 */
import { planContext, planDelivery } from './engine-behaviours.js';
import { decodeFrame, type FrameViolation } from './engine-inbound.js';
import type {
  Action,
  Behaviour,
  Bytes,
  FramingFault,
  HttpMeta,
  InboundRecord,
  RecordEntry,
  RecordedAction,
  Transport,
} from './model.js';
import { encodeBytes, recordAction } from './recording.js';

/** One delivery as stepped, before its entries are built. Nobody mutates what it refers to. */
export interface RecordedDelivery {
  readonly delivery: number;
  readonly transport: Transport;
  readonly connectionId: string;
  readonly monotonic: number;
  readonly wall: number;
  /** The frame's exact bytes (a view: whoever keeps the delivery past the step copies them). */
  readonly bytes: Uint8Array;
  readonly fault: FramingFault | undefined;
  /** The shell's request line and header map. */
  readonly http: HttpMeta | undefined;
  readonly attempt: number;
  readonly rule: number | null;
  readonly planned: boolean;
  /** The behaviour the rules (or gates, or defaults) decided on, before planning. */
  readonly decided: Behaviour;
  /** The PRNG state planning started from. */
  readonly prng: number;
  readonly violations: readonly FrameViolation[];
}

/** What a step records: a delivery, or entries built already (a process start, an engine error). */
export type Recorded = RecordedDelivery | readonly RecordEntry[];

/** The public entries of what a step recorded. */
export function entriesOf(recorded: Recorded): readonly RecordEntry[] {
  return isEntryList(recorded) ? recorded : deliveryEntries(recorded);
}

/** True for entries built already, false for a delivery. */
export function isEntryList(recorded: Recorded): recorded is readonly RecordEntry[] {
  return Array.isArray(recorded);
}

/** The public entries of a delivery: the inbound record, its violations, then one outbound entry per action. */
export function deliveryEntries(d: RecordedDelivery): RecordEntry[] {
  const { delivery, transport, connectionId } = d;
  const bytes: Bytes = encodeBytes(d.bytes);
  const frame = decodeFrame(d.bytes, d.fault);
  // Planned again as at step time: same behaviour, frame, attempt and PRNG state, so the same
  // actions and chosen behaviour; what planning reports is already among `violations`.
  const plan = planDelivery(
    d.decided,
    planContext(transport, frame, d.attempt, d.prng, [], {
      bytes: d.bytes,
      delivery: d.delivery,
    }),
  );
  const record: InboundRecord = {
    type: 'inbound',
    delivery,
    transport,
    connectionId,
    at: { monotonic: d.monotonic, wall: d.wall },
    bytes,
    kind: frame.kind,
    attempt: d.attempt,
    rule: d.rule,
    planned: d.planned,
    behaviour: plan.chosen,
  };
  if (d.http) {
    const { method, path, headers } = d.http;
    record.http = { method, path, headers: { ...headers } };
  }
  if (frame.method !== undefined) record.method = frame.method;
  if (frame.id !== undefined) record.id = frame.id;
  if (frame.eventId !== undefined) record.eventId = frame.eventId;
  if (frame.eventType !== undefined) record.eventType = frame.eventType;
  if (frame.toolName !== undefined) record.toolName = frame.toolName;

  const out: RecordEntry[] = [record];
  for (const v of d.violations) {
    const entry: RecordEntry = {
      type: 'violation',
      delivery,
      transport,
      connectionId,
      code: v.code,
      message: v.message,
    };
    if (v.path !== undefined) entry.path = v.path;
    out.push(entry);
  }
  for (const a of plan.actions) {
    out.push({ type: 'outbound', delivery, transport, connectionId, action: recordPlanned(a) });
  }
  return out;
}

/**
 * The record of an action planned for the frame. Unlike `recordAction`, it keeps the action itself
 * where it holds nothing shared (planned afresh for this read): a head's header map may be a
 * shared frozen one, so it is copied; a write's bytes are encoded.
 */
function recordPlanned(action: Action): RecordedAction {
  return action.type === 'write' || action.type === 'head' ? recordAction(action) : action;
}
