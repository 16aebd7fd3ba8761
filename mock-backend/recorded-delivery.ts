/**
 * What the mock keeps of one delivery until somebody reads the recording: the frame's exact bytes,
 * its arrival, and the engine's decision with the attempt and PRNG state it was planned with, as
 * one flat object (a session copies it into its DeliveryLog). The public entries (inbound,
 * violations, outbound, see model.ts) are derived from it on demand, with the same fields and
 * content as if built at step time.
 *
 * Why: a mock answers many thousands of frames and is read a few times. Building and keeping the
 * full entries per frame (a dozen objects: the record, its instant, its bytes, each outbound entry
 * with its encoded bytes, the id strings) was about half of the engine's step time, most of it in
 * the garbage collector copying what every delivery kept. The fields a read derives again (kind,
 * method, ids, tool name) come from decoding the same bytes, which is deterministic; the outbound
 * actions and the behaviour carried out come from planning the decision again, which is pure (the
 * actions, a reply's bytes included, were about a third of what a delivery kept).
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

/** One delivery as stepped, before its entries are built. Shells never mutate what it refers to. */
export class RecordedDelivery {
  constructor(
    readonly delivery: number,
    readonly transport: Transport,
    readonly connectionId: string,
    readonly monotonic: number,
    readonly wall: number,
    /** The frame's exact bytes (a view: whoever keeps the delivery past the step copies them). */
    readonly bytes: Uint8Array,
    readonly fault: FramingFault | undefined,
    /** The shell's request line and header map (node's own map, never modified after parsing). */
    readonly http: HttpMeta | undefined,
    readonly attempt: number,
    readonly rule: number | null,
    readonly planned: boolean,
    /** The behaviour the rules (or gates, or defaults) decided on, before planning. */
    readonly decided: Behaviour,
    /** The PRNG state planning started from. */
    readonly prng: number,
    readonly violations: readonly FrameViolation[],
  ) {}

  /** The public entries: the inbound record, its violations, then one outbound entry per action. */
  entries(): RecordEntry[] {
    const { delivery, transport, connectionId } = this;
    const bytes: Bytes = encodeBytes(this.bytes);
    const frame = decodeFrame(this.bytes, this.fault);
    // Planned again as at step time: same behaviour, frame, attempt and PRNG state, so the same
    // actions and chosen behaviour; what planning reports is already among `violations`.
    const plan = planDelivery(this.decided, planContext(transport, frame, this.attempt, this.prng, []));
    const record: InboundRecord = {
      type: 'inbound',
      delivery,
      transport,
      connectionId,
      at: { monotonic: this.monotonic, wall: this.wall },
      bytes,
      kind: frame.kind,
      attempt: this.attempt,
      rule: this.rule,
      planned: this.planned,
      behaviour: plan.chosen,
    };
    if (this.http) {
      const { method, path, headers } = this.http;
      record.http = { method, path, headers: copyHeaders(headers) };
    }
    if (frame.method !== undefined) record.method = frame.method;
    if (frame.id !== undefined) record.id = frame.id;
    if (frame.eventId !== undefined) record.eventId = frame.eventId;
    if (frame.eventType !== undefined) record.eventType = frame.eventType;
    if (frame.toolName !== undefined) record.toolName = frame.toolName;

    const out: RecordEntry[] = [record];
    for (const v of this.violations) {
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
}

/** The entries of a delivery kept compact, or of one recorded as entries already (start, engine errors). */
export function entriesOf(recorded: RecordedDelivery | readonly RecordEntry[]): readonly RecordEntry[] {
  return recorded instanceof RecordedDelivery ? recorded.entries() : recorded;
}

/**
 * The record of an action planned for the frame. Unlike `recordAction`, it keeps the action itself
 * where it holds nothing shared (planned afresh for this read): a head's header map may be a
 * shared frozen one, so it is copied; a write's bytes are encoded.
 */
function recordPlanned(action: Action): RecordedAction {
  return action.type === 'write' || action.type === 'head' ? recordAction(action) : action;
}

/** A copy of a header map (a loop: cheaper than a spread of an object with many keys). */
function copyHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) out[name] = headers[name] as string;
  return out;
}
