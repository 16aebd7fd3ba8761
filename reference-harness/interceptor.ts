import type { JsonValue } from '../protocol/json.js';
import type { InterceptSubscription } from '../protocol/registration.js';
import { buildInterceptRequest } from '../protocol/messages.js';
import type { Capabilities } from '../protocol/wire-types.js';
import { capabilitiesForView } from './advertised-effects.js';
import { endingOutcome, openRecord, type AuditRecord } from './audit.js';
import { contentView } from './content-selection.js';
import { controlState } from './control-state.js';
import { startSubscriptionDeadline, type SubscriptionDeadline } from './deadline.js';
import { sendContext, transportException, type DeliveryDeps } from './delivery.js';
import type { Planned } from './dispatch.js';
import type { Ending } from './interruption.js';
import { judgeReply } from './reply-judge.js';
import { runWithRetries } from './retry.js';
import { stageEffects, type EffectiveState, type HarnessEvent, type Staged } from './staging.js';
import type { BackendTransport, TransportFailure, TransportReply } from './transport.js';

/** How one interceptor ended: an accepted response, an operational failure, or the call's ending. */
export type InterceptStep =
  | { kind: 'accepted'; staged: Extract<Staged, { ok: true }> }
  | { kind: 'failure'; failure: TransportFailure }
  | { kind: 'ended'; ending: Ending };

type Verdict = { ok: true; staged: Extract<Staged, { ok: true }> } | { ok: false; failure: TransportFailure };

/**
 * Runs one intercept subscription under one deadline: serializes the request once (every retry
 * resends those exact bytes), sends, judges the reply, and stages the whole response. The
 * deadline is re-checked after each attempt, so acceptance is published only inside it.
 * The failure policy is not applied here: the chain applies it once per response.
 */
export async function runInterceptor(
  planned: Planned<InterceptSubscription>,
  state: EffectiveState,
  boundaryCapabilities: Capabilities,
  deps: DeliveryDeps,
): Promise<{ step: InterceptStep; record: AuditRecord }> {
  const { clock } = deps;
  const { subscription } = planned;
  // Serialized once: every retry resends these exact bytes. The event as built comes with its
  // text; one an earlier interceptor modified is serialized here.
  // The subscription sees its own content view (content-selection.ts); an event without content
  // is the same object, so it keeps its prebuilt text.
  const { builtEvent } = deps;
  const view = contentView(state.event, subscription);
  // A view that withholds content is offered no whole-list replace of it (content-edits.ts).
  const capabilities = capabilitiesForView(boundaryCapabilities, state.event.type, view);
  // Every request carries the incoming control state: what earlier interceptors had accepted.
  const incoming = controlState(state, capabilities);
  const frame =
    capabilities !== boundaryCapabilities
      ? JSON.stringify(
          buildInterceptRequest({
            protocolVersion: deps.protocolVersion,
            event: view,
            capabilities,
            state: incoming,
          }),
        )
      : view === builtEvent.event
        ? deps.interceptFrames.frame(view, builtEvent.text, builtEvent.idText, incoming)
        : deps.interceptFrames.frame(view, undefined, undefined, incoming);
  const transport = deps.transportFor(planned.backend.id);
  const deadline = startSubscriptionDeadline(clock, deps.call, subscription.timeoutMs);
  // The record starts when the delivery's deadline does (one clock read for both).
  const record = openRecord(planned.ref, 'intercept', 'no-effect', deadline.startedAt);
  record.policy = subscription.failurePolicy;

  const attempt: Attempt = {
    transport,
    frame,
    requestId: state.event.id,
    state,
    view,
    capabilities,
    deps,
    record,
    deadline,
  };

  try {
    const run = await runWithRetries<Verdict>({
      clock,
      deadline,
      retries: deps.retries,
      backoffMs: deps.retryBackoffMs,
      attempt: attemptWith(attempt),
      isFailure: isFailedVerdict,
    });
    record.attempts = run.attempts;
    record.settledAt = clock.now();
    if (run.stopped !== undefined && run.stopped !== 'deadline') {
      record.outcome = endingOutcome(run.stopped);
      delete record.effects;
      return { step: { kind: 'ended', ending: run.stopped }, record };
    }
    const verdict: Verdict | undefined = run.stopped === 'deadline' ? undefined : run.last;
    if (verdict === undefined) {
      const failure: TransportFailure = {
        failureClass: 'deadline-exceeded',
        code: 'deadline.exceeded',
        detail: `no acceptable reply within ${subscription.timeoutMs} ms`,
      };
      return { step: fail(record, failure), record };
    }
    if (!verdict.ok) return { step: fail(record, verdict.failure), record };
    const { staged } = verdict;
    record.outcome = staged.deny ? 'deny' : (record.effects?.length ?? 0) === 0 ? 'no-effect' : 'effects';
    if (staged.deny) record.synthetic = false;
    return { step: { kind: 'accepted', staged }, record };
  } finally {
    deadline.dispose();
  }
}

/** What every attempt of one interceptor delivery shares. */
interface Attempt {
  transport: BackendTransport;
  /** Serialized once: every retry resends these exact bytes. */
  frame: string;
  requestId: string;
  state: EffectiveState;
  /** The event as this subscription was sent it: content edits are applied against it. */
  view: HarnessEvent;
  capabilities: Capabilities;
  deps: DeliveryDeps;
  record: AuditRecord;
  deadline: SubscriptionDeadline;
}

/** The attempt function for `runWithRetries` (made here, unnamed: it is made on every call). */
function attemptWith(a: Attempt): (n: number) => Promise<Verdict> {
  return (n) => sendAndJudge(a, n);
}

/** One send of the frame, its reply judged and its effects staged. */
async function sendAndJudge(a: Attempt, n: number): Promise<Verdict> {
  const { state, capabilities, deps, record } = a;
  // A throw or rejection breaks the transport contract: it becomes a failure value here, in this
  // function rather than a wrapper (each async layer costs ticks on the way to the write and back).
  let reply: TransportReply;
  try {
    reply = await a.transport.request(a.frame, sendContext(deps, record, a.deadline.cancellation, n));
  } catch (error) {
    reply = transportException(error);
  }
  const judged = judgeReply(reply, {
    requestId: a.requestId,
    protocolVersion: deps.protocolVersion,
    eventType: state.event.type,
    capabilities,
    event: state.event as unknown as JsonValue,
  });
  if (!judged.ok) return judged;
  const staged = stageEffects(state, judged.effects, a.view);
  if (!staged.ok)
    return {
      ok: false,
      failure: { failureClass: 'invalid-effects', code: staged.code, detail: staged.detail },
    };
  record.effects = judged.effects.map((e) => e.type);
  return { ok: true, staged };
}

function isFailedVerdict(v: Verdict): boolean {
  return !v.ok;
}

function fail(record: AuditRecord, failure: TransportFailure): InterceptStep {
  record.outcome = 'operational-failure';
  record.failureClass = failure.failureClass;
  record.failureCode = failure.code;
  record.detail = failure.detail;
  delete record.effects;
  return { kind: 'failure', failure };
}
