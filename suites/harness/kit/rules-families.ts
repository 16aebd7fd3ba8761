/**
 * Harness rules of the families' own subjects: registrations refused or accepted, the event on
 * the wire, content selection, composition and dispatch, host permissions, edits, observers,
 * shutdown, token providers and the conformance claim. Pure data.
 */
import { FINDING_RANK } from '../../common/finding.js';
import { basis, DOC, rule, type HarnessRule } from './rules-basis.js';

const { envelope, configuration, decision, report } = FINDING_RANK;
const BUDGETS = 'Enclosing operation budgets and shutdown';

export const FAMILY_RULES = {
  'registration.explicit-policy': rule(
    'AHPX-FAIL-003',
    basis(
      DOC.failure,
      'Failure policy',
      'MUST',
      'There is no implicit default: an intercept subscription without an explicit failure policy is refused.',
    ),
    configuration,
    'An intercept subscription without an explicit failure policy is accepted',
  ),
  'registration.policy-value': rule(
    'AHP-FAIL-001',
    basis(
      DOC.failure,
      'AHP-FAIL-001',
      'MUST',
      'Each intercept subscription configures exactly fail-open or fail-closed; any other value is refused.',
    ),
    configuration,
    'An intercept subscription whose failure policy is neither fail-open nor fail-closed is accepted',
  ),
  'registration.observe-no-policy': rule(
    'AHPX-FAIL-006',
    basis(
      DOC.failure,
      'Failure policy',
      'MUST NOT',
      'Observe subscriptions are non-blocking and never specify failurePolicy (nor timeoutMs).',
    ),
    configuration,
    'An observe subscription carrying failurePolicy or timeoutMs is accepted',
  ),
  'registration.timeout-value': rule(
    'AHP-FAIL-002',
    basis(
      DOC.failure,
      'AHP-FAIL-002',
      'MUST',
      'Every intercept subscription specifies timeoutMs as a positive integer.',
    ),
    configuration,
    'An intercept subscription whose timeoutMs is no positive integer is accepted',
  ),
  'registration.timeout-range': rule(
    'AHPX-DL-003',
    basis(
      DOC.failure,
      'Deadlines',
      'SHOULD',
      'A harness supports timeoutMs values from 100 ms through 30,000 ms.',
    ),
    configuration,
    'A timeoutMs inside the range a harness should support is refused',
  ),
  'registration.valid-accepted': rule(
    'AHP-REG-001',
    basis(
      DOC.registration,
      'AHP-REG-001',
      'MUST',
      'A registration with the snapshot protocolVersion and an ordered, non-empty hooks array of valid backends is a valid registration.',
    ),
    configuration,
    'The harness refuses a valid registration',
  ),
  'registration.document-shape': rule(
    'AHP-REG-001',
    basis(
      DOC.registration,
      'AHP-REG-001',
      'MUST',
      'A registration document declares the snapshot protocolVersion and an ordered, non-empty hooks array; any other document is refused.',
    ),
    configuration,
    'A registration document without the snapshot version or a non-empty hooks array is accepted',
  ),
  'registration.unusable-transport-refused': rule(
    'AHP-REG-001',
    basis(
      DOC.baseIndex,
      'Base Protocol profile',
      'MUST',
      'A harness rejects invalid interceptor configuration rather than silently skipping it; plain http to a remote endpoint is invalid (transports/http.md, TLS).',
    ),
    configuration,
    'A backend whose transport cannot be used is accepted',
  ),
  'registration.backend-id-unique': rule(
    'AHP-REG-001',
    basis(
      DOC.registration,
      'Backend fields',
      'MUST',
      'Each backend id is unique within the document: a registration that names one backend id twice is invalid, and an invalid registration is refused.',
    ),
    configuration,
    'A registration that names one backend id twice is accepted',
  ),
  'registration.intercept-interceptable-only': rule(
    'AHP-REG-001',
    basis(
      DOC.registration,
      'Subscription fields',
      'MUST',
      'An intercept subscription selects only events the harness advertises as interceptable; an observation-only event never is, so a registration that intercepts one is refused.',
    ),
    configuration,
    'An intercept subscription to an observation-only event is accepted',
  ),
  'registration.managed-not-disableable': rule(
    'AHP-REG-001',
    basis(
      DOC.capabilityAuth,
      'Registration',
      'MUST',
      'A managed-scope subscription sets disableable: false; one that does not is invalid and refused.',
    ),
    configuration,
    'A managed-scope subscription that does not set disableable: false is accepted',
  ),
  'registration.managed-scope-served': rule(
    'AHP-REG-001',
    basis(
      DOC.capabilityAuth,
      'Registration',
      'MUST',
      'A harness that cannot enforce a managed (mandatory) subscription refuses it rather than silently degrading; one it accepts it serves like any other subscription.',
    ),
    decision,
    'A managed subscription the harness accepted is not served as registered',
  ),
  'auth.portable-bindings': rule(
    'AHP-AUTH-001',
    basis(
      DOC.capabilityAuth,
      'Explicit endpoint bindings',
      'MUST',
      'Portable endpoint authentication is bearer or oauth; mtls and workload bindings are deployment-specific.',
    ),
    configuration,
    'A portable registration with a non-portable authentication binding is accepted',
  ),
  'dispatch.selector': rule(
    'AHP-REG-002',
    basis(
      DOC.registration,
      'AHP-REG-002',
      'MUST',
      'An event goes to a backend only through a subscription whose events match it and whose mode matches the delivery method.',
    ),
    decision,
    'An event is not dispatched as the subscriptions select it',
  ),
  'event.tool-before': rule(
    'AHP-TB-001',
    basis(
      DOC.lifecycle,
      'AHP-TB-001',
      'MUST',
      'A tool.before event carries the common envelope, session, call and tool fields, closed objects, and nothing of the call after the fact.',
    ),
    envelope,
    'The tool.before event on the wire is not valid',
  ),
  'event.payload': rule(
    'AHP-RPC-001',
    basis(
      DOC.events,
      'Common event fields',
      'MUST',
      "Every event carries its REQUIRED envelope fields and the payload its type's schema requires (execution-payloads.md, interaction-payloads.md, task-workspace-lineage.md), with the protocol's closed objects closed.",
    ),
    envelope,
    'An event other than tool.before is not valid against its schema on the wire',
  ),
  'event.lineage': rule(
    'AHP-RPC-001',
    basis(
      DOC.lineage,
      'Lineage and actual changes',
      'MUST',
      'parentEventId is the id of an event of the same source that the producer knows as the parent, never a call id and never the event itself; a producer that knows the parent names it, and omits the field otherwise.',
    ),
    envelope,
    'An event names no earlier event of the harness as its parent where it must',
    {
      ways: {
        missing: 'the event leaves out the parent the harness was given',
        wrong: 'the event names another event than the parent it was given',
        unknown: 'the event names as parent no event the harness sent before it',
      },
    },
  ),
  'event.capabilities': rule(
    'AHP-CAP-002',
    basis(
      DOC.capabilities,
      'AHP-CAP-002',
      'MUST',
      'Every hooks/intercept request carries capabilities.effects, which includes deny at tool.before.',
    ),
    envelope,
    'An intercept request does not advertise its effects as required',
  ),
  'event.capabilities-enforceable': rule(
    'AHP-CAP-001',
    basis(
      DOC.capabilities,
      'AHP-CAP-001',
      'MUST',
      'A harness advertises only effects it can enforce for the current interception.',
    ),
    envelope,
    'An intercept request advertises an effect its event cannot take',
  ),
  'event.extension-keys': rule(
    'AHP-EXT-001',
    basis(DOC.events, 'AHP-EXT-001', 'MUST', 'Extension keys are reverse-DNS names.'),
    envelope,
    'An extension key on the wire is not a reverse-DNS name',
  ),
  'content.canonical': rule(
    'AHP-CONTENT-001',
    basis(
      DOC.contentUpload,
      'AHP-CONTENT-001',
      'MUST',
      'Model-visible content is canonical messages with roles and ordered parts, text inline, structured data serialized into text, no JSON part.',
    ),
    envelope,
    'Model-visible content on the wire is not in canonical form',
  ),
  'content.selection': rule(
    'AHP-CONTENT-002',
    basis(
      DOC.contentUpload,
      'AHP-CONTENT-002',
      'MUST',
      "Each subscription's content selection decides each part's view; what a view withholds appears nowhere in the frame, and only non-text, non-JSON media are uploaded.",
    ),
    envelope,
    "A frame's content is not what its subscription selects",
  ),
  'content.native': rule(
    'AHP-CONTENT-002',
    basis(
      DOC.contentUpload,
      'Preparation and security boundaries',
      'MUST',
      'Opaque native data goes only to a subscription that sets includeNative (off by default), and never carries what its content selection withholds.',
    ),
    envelope,
    'Opaque native data reaches a subscription that did not ask for it, or carries what its view withholds',
  ),
  'content.native-projection': rule(
    'AHP-CONTENT-002',
    basis(
      DOC.contentUpload,
      'Preparation and security boundaries',
      'MUST',
      'Projecting native data out of an event takes out only the native value: it never replaces the required normalized fields around it (an error keeps its class and message), and no field is invented in its place.',
    ),
    envelope,
    'Taking native data out of an event changed the normalized fields around it',
  ),
  'content.upload-framing': rule(
    'AHP-CONTENT-002',
    basis(
      DOC.contentUpload,
      'Request framing',
      'MUST',
      'An upload POSTs the raw octets (never base64, JSON-wrapped or re-encoded) to the exact configured endpoint, with Content-Type application/octet-stream, the exact Content-Length and AHP-Content-SHA256, the lowercase SHA-256 hex of the body.',
    ),
    envelope,
    'An attachment upload is not framed as the upload binding requires',
  ),
  'content.upload-receipt': rule(
    'AHP-CONTENT-002',
    basis(
      DOC.contentUpload,
      'Upload before publication',
      'MUST',
      'Every selected upload finishes before the referring event is published, and only the ref of a 201 JSON receipt whose size and sha256 match the bytes sent becomes a ready body reference; a failed upload yields a gap, a suppressed delivery or the failure policy, never a reference.',
    ),
    envelope,
    'An attachment reference on the wire is not the one a matching upload receipt confirmed',
  ),
  'content.upload-auth': rule(
    'AHP-CONTENT-002',
    basis(
      DOC.contentUpload,
      'Configuration and destination',
      'MUST',
      'The sender resolves upload credentials independently: without upload.auth it uses OAuth discovery on the upload endpoint, never the event credentials.',
    ),
    envelope,
    "An attachment upload carries the event delivery's credentials",
  ),
  'composition.chain': rule(
    'AHP-COMP-001',
    basis(
      DOC.composition,
      'AHP-COMP-001',
      'MUST',
      'Interceptors run in registration order; an accepted deny, a flow stop, an interruption or a fail-closed failure ends the chain, a fail-open failure moves on.',
    ),
    decision,
    'The chain of interceptors is not asked, or stopped, as composition requires',
  ),
  'composition.serial': rule(
    'AHP-COMP-001',
    basis(
      DOC.composition,
      'AHP-COMP-001',
      'MUST',
      "Interceptors run one at a time: each is asked only after the previous one's reply.",
    ),
    decision,
    'Interceptors are asked out of order or concurrently',
  ),
  'effects.supplied-result': rule(
    'AHP-COMP-001',
    basis(
      DOC.composition,
      'AHP-COMP-001',
      'MUST',
      'A return supplies a candidate result that skips the original execution without denying it; a later changed operation voids it, a later return replaces it, and a null value is a result.',
    ),
    decision,
    'A supplied result is kept, dropped or reported otherwise than composition makes it',
  ),
  'effects.messages': rule(
    'AHP-COMP-001',
    basis(DOC.composition, 'AHP-COMP-001', 'MUST', 'Messages of accepted responses accumulate in order.'),
    report,
    'The accepted messages are not reported in chain order',
  ),
  'effects.permission': rule(
    'AHP-COMP-001',
    basis(
      DOC.composition,
      'AHP-COMP-001',
      'MUST',
      'A deny beats ask and allow, and an ask persists even when a later allow arrives.',
    ),
    decision,
    'Allow, ask and deny across the chain do not combine as composition requires',
  ),
  'effects.flow': rule(
    'AHP-COMP-001',
    basis(
      DOC.composition,
      'AHP-COMP-001',
      'MUST',
      'An accepted flow stop ends decision-making and the pending operation with its reason, and beats any continue; the uncalled interceptors get the boundary as an observation.',
    ),
    decision,
    'An accepted flow stop is not applied or reported as composition requires',
  ),
  'effects.continuation': rule(
    'AHP-COMP-001',
    basis(
      DOC.composition,
      'AHP-COMP-001',
      'MUST',
      'Continue instructions accumulate in order but ask for one step and use one allowance unit.',
    ),
    decision,
    'Continuations are not applied or counted as composition requires',
  ),
  'effects.inject': rule(
    'AHP-COMP-001',
    basis(
      DOC.composition,
      'AHP-COMP-001',
      'MUST',
      'Accepted injections are applied in order, each as the backend sent it.',
    ),
    report,
    'The accepted injections are not reported in order as received',
  ),
  'effects.state': rule(
    'AHP-COMP-001',
    basis(
      DOC.composition,
      'AHP-COMP-001',
      'MUST',
      'Each interceptor is sent the control state the accepted responses before it made: the permission and the supplied-result candidate.',
    ),
    decision,
    'An interceptor is sent a control state other than the accepted responses made',
  ),
  'effects.atomic': rule(
    'AHP-EDIT-001',
    basis(
      DOC.composition,
      'AHP-EDIT-001',
      'MUST',
      'A response with one bad member (an exhausted continuation allowance included) is rejected whole: none of its members, not even a valid deny, message or injection, is applied, and the failure policy acts once.',
    ),
    decision,
    'Something of a rejected response is applied, or the policy does not act once',
  ),
  'effects.advertised-only': rule(
    'AHP-DEC-001',
    basis(
      DOC.toolInterception,
      'AHP-DEC-001',
      'MUST',
      'A success result holds only valid effects the request advertised; an effect outside the advertisement makes the response invalid.',
    ),
    decision,
    'An effect the request did not advertise is applied',
  ),
  'host.deny-not-executed': rule(
    'AHP-DEC-002',
    basis(
      DOC.toolInterception,
      'AHP-DEC-002',
      'MUST',
      'A harness that accepts a valid deny does not execute the operation.',
    ),
    decision,
    'An operation runs although its valid deny was accepted',
  ),
  'host.empty-list-no-grant': rule(
    'AHP-DEC-003',
    basis(
      DOC.toolInterception,
      'AHP-DEC-003',
      'MUST NOT',
      'An empty effect list is no authorization grant and never bypasses host permissions, sandboxing or approval.',
    ),
    decision,
    'An empty effect list lifts a host deny or ask',
  ),
  'host.never-weakened': rule(
    'AHP-SEC-001',
    basis(
      DOC.baseIndex,
      'AHP-SEC-001',
      'MUST NOT',
      'AHP never weakens host authorization, permissions, approval or sandbox controls.',
    ),
    decision,
    'An AHP outcome lifts a host deny or ask',
  ),
  'host.ask-enforced': rule(
    'AHP-CAP-001',
    basis(
      DOC.capabilities,
      'AHP-CAP-001',
      'MUST',
      'A harness advertises only effects it can enforce: an accepted ask holds the operation for an approval.',
    ),
    decision,
    'An operation runs without approval although the harness accepted an advertised ask',
  ),
  'host.execution-reported': rule(
    'AHP-DEC-002',
    basis(
      DOC.toolInterception,
      'AHP-DEC-002',
      'MUST',
      'Whether the operation ran follows from the accepted decision.',
    ),
    report,
    'A driver announcing execution reports no executed flag',
  ),
  'edit.outcome': rule(
    'AHP-EDIT-001',
    basis(
      DOC.toolInterception,
      'AHP-EDIT-001',
      'MUST',
      'Edits within the advertised authority are accepted atomically and chain serially; a response with one bad member is rejected whole and the policy acts once.',
    ),
    decision,
    'A chain with edits does not settle as atomic acceptance requires',
  ),
  'edit.passed-on': rule(
    'AHP-EDIT-001',
    basis(
      DOC.toolInterception,
      'AHP-EDIT-001',
      'MUST',
      'Replace drops what it omits, merge is shallow, and each interceptor and observer sees the input the accepted edits made.',
    ),
    decision,
    'An interceptor or observer is sent an input other than the accepted edits make',
  ),
  'edit.content-passed-on': rule(
    'AHP-EDIT-001',
    basis(
      DOC.composition,
      'AHP-EDIT-001',
      'MUST',
      'For message and text-part lists, replace substitutes the whole list and merge appends in order without deduplication; each later interceptor and every observer receives the accepted effective content.',
    ),
    decision,
    'An interceptor or observer is sent content other than the accepted edits make',
  ),
  'edit.hidden-replace': rule(
    'AHP-EDIT-001',
    basis(
      DOC.composition,
      'AHP-EDIT-001',
      'MUST NOT',
      'A whole-list replacement is neither advertised nor accepted when the target holds text withheld by metadata or omit selection, or a content gap.',
    ),
    decision,
    'A whole-list replace of content the subscription could not see is offered or applied',
    {
      ways: {
        advertised:
          'A whole-list replace is advertised to a subscription whose view withholds the target content',
        applied: 'A whole-list replace of content the subscription could not see is applied',
      },
    },
  ),
  'edit.attachment-immutable': rule(
    'AHP-EDIT-001',
    basis(
      DOC.composition,
      'AHP-EDIT-001',
      'MUST NOT',
      'A modification value may carry an existing attachment only as its unchanged, validated reference; no effect may edit or rebind the attachment behind a reference.',
    ),
    decision,
    'A modification that edits or rebinds an attachment is applied',
  ),
  'observe.delivered': rule(
    'AHPX-FAIL-006',
    basis(
      DOC.failure,
      'Failure policy',
      'MUST',
      "Observe subscriptions effectively fail open: an observer's failure never changes the settled decision, and its notification is delivered.",
    ),
    decision,
    'The observe notification of the call never reached its backend',
  ),
  'observe.retry-identical': rule(
    'AHPX-RETRY-003',
    basis(
      DOC.failure,
      'Duplicate delivery and retries',
      'MUST',
      'A retried observe notification keeps the exact payload and identities (and stays a notification).',
    ),
    envelope,
    'A retried observe notification differs from the first',
  ),
  'shutdown.admission-stopped': rule(
    'AHPX-SHUT-001',
    basis(DOC.failure, BUDGETS, 'MUST', 'After close, calls fail locally and reach no backend.'),
    decision,
    'A call after close is answered or reaches a backend',
  ),
  'shutdown.processes-reaped': rule(
    'AHPX-SHUT-002',
    basis(
      DOC.failure,
      BUDGETS,
      'MUST',
      'Every process the client spawned is reaped within a bound before close completes.',
    ),
    decision,
    'A backend process outlives close, or close exceeds its bound',
  ),
  'shutdown.repeat-safe': rule(
    'AHPX-SHUT-003',
    basis(DOC.failure, BUDGETS, 'MUST', 'Repeated shutdown is safe.'),
    decision,
    'A second close fails',
  ),
  'shutdown.caller-owned': rule(
    'AHPX-SHUT-004',
    basis(
      DOC.failure,
      BUDGETS,
      'MUST',
      'Injected transports and auth providers stay open after close unless ownership was transferred.',
    ),
    decision,
    'Close closes what the caller lent the harness',
  ),
  'shutdown.pending-call-ended': rule(
    'AHPX-SHUT-005',
    basis(
      DOC.failure,
      BUDGETS,
      'MUST',
      'Close cancels or retires active owned I/O: a call pending at close ends at once, interrupted.',
    ),
    decision,
    'A call pending at close does not end at once as an interrupted denial',
  ),
  'auth.callback-rechecked': rule(
    'AHPX-INT-003',
    basis(
      DOC.failure,
      'Deadlines',
      'MUST',
      'After an external authorization callback, cancellation and the original deadline are rechecked before acceptance, and no lock is held across the callback.',
    ),
    decision,
    'A token callback that returns after cancellation, the deadline or close is still used, or blocks others',
  ),
  'auth.shared-wait-cancel': rule(
    'AHPX-BUD-007',
    basis(
      DOC.failure,
      BUDGETS,
      'MUST',
      "Cancelling one call's wait on a shared auth operation does not cancel unrelated callers.",
    ),
    decision,
    "Cancelling one call's wait on a token cancels another caller's",
  ),
  'auth.failure-follows-policy': rule(
    'AHPX-FAIL-004',
    basis(
      DOC.failure,
      'Failure policy',
      'MUST',
      'Authentication failures follow the configured policy like any other operational failure.',
    ),
    decision,
    'An authentication failure does not follow the failure policy',
  ),
  'deadline.covers-auth': rule(
    'AHPX-DL-001',
    basis(
      DOC.failure,
      'Deadlines',
      'MUST',
      'The deadline covers dispatch-time authentication, connection setup, transmission, processing, parsing and acceptance.',
    ),
    decision,
    'Work inside the call (such as a token acquisition) outlasts the deadline',
  ),
  'claim.consistent': rule(
    'AHP-CORE-001',
    basis(
      DOC.baseIndex,
      'AHP-CORE-001',
      'MUST',
      'A conformance claim states its role, every transport binding and every profile it implements.',
    ),
    report,
    'The conformance claim is incomplete or inconsistent',
  ),
} as const satisfies Record<string, HarnessRule>;
