import type {
  DriverAuditEntry as WireAuditEntry,
  InvokeResult as WireInvokeResult,
} from '../../protocol/driver-protocol/index.js';
import type { ToolBeforeEvent } from '../../protocol/wire-types.js';
import type { AuditRecord, HarnessEvent, InvokeResult } from '../index.js';

/** One audit entry as the reference driver reports it: the protocol's, its extensions always filled. */
export type DriverAuditEntry = WireAuditEntry &
  Required<Pick<WireAuditEntry, 'mode' | 'subscriptionIndex' | 'attempts' | 'durationMs'>>;

/** The reference driver's `invoke` result: the protocol's, with every extension and v1.1 member. */
export type DriverInvokeResult = WireInvokeResult &
  Required<Pick<WireInvokeResult, 'eventId' | 'eventType' | 'executed' | 'permission' | 'messages'>> & {
    audit: DriverAuditEntry[];
  };

/** Maps one audit record; local-only fields (`detail`, timestamps) stay in the harness. */
export function toDriverAuditEntry(record: AuditRecord): DriverAuditEntry {
  const entry: DriverAuditEntry = {
    backendId: record.backendId,
    outcome: record.outcome,
    mode: record.mode,
    subscriptionIndex: record.subscriptionIndex,
    attempts: record.attempts,
    // Two monotonic readings of the same clock; rounded so the wire shows no float noise.
    durationMs: Math.max(0, Math.round((record.settledAt - record.startedAt) * 1000) / 1000),
  };
  if (record.failureClass !== undefined) entry.failureClass = record.failureClass;
  if (record.failureCode !== undefined) entry.failureCode = record.failureCode;
  if (record.policy !== undefined) entry.policy = record.policy;
  if (record.synthetic !== undefined) entry.synthetic = record.synthetic;
  if (record.boundaryCopy !== undefined) entry.boundaryCopy = record.boundaryCopy;
  return entry;
}

/** Maps a harness result to the driver's `invoke` result (no transcript: the mock records the wire). */
export function toDriverInvokeResult(result: InvokeResult<HarnessEvent>): DriverInvokeResult {
  // Built in reading order: the decision first, the audit last.
  return {
    decision: result.decision,
    ...(result.reason === undefined ? {} : { reason: result.reason }),
    synthetic: result.synthetic,
    interrupted: result.interrupted,
    ...(result.ending === undefined ? {} : { ending: result.ending }),
    eventId: result.event.id,
    eventType: result.event.type,
    executed: result.executed,
    permission: result.finalPermission,
    ...(result.uploads === undefined ? {} : { uploads: result.uploads }),
    ...outcomes(result),
    audit: result.audit.map(toDriverAuditEntry),
  };
}

/**
 * The v1.3 outcome members: messages always, the effective tool input at tool.before, and the
 * supplied result, flow, continuation and injection members exactly when the harness reports them.
 */
function outcomes(
  result: InvokeResult<HarnessEvent>,
): Pick<
  DriverInvokeResult,
  | 'messages'
  | 'input'
  | 'result'
  | 'flow'
  | 'continuationInstructions'
  | 'continuationRemaining'
  | 'injections'
> {
  const out: ReturnType<typeof outcomes> = { messages: result.messages };
  const effective = result.effectiveEvent;
  if (effective.type === 'tool.before') out.input = (effective as ToolBeforeEvent).tool.input;
  if (result.result !== undefined) out.result = result.result.value;
  if (result.flow !== undefined) out.flow = result.flow;
  if (result.continuationInstructions !== undefined)
    out.continuationInstructions = result.continuationInstructions;
  if (result.continuationRemaining !== undefined) out.continuationRemaining = result.continuationRemaining;
  if (result.injections !== undefined) out.injections = result.injections;
  return out;
}
