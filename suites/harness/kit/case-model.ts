/**
 * The harness suite's case model. A case is data: a transport, a policy, what the mock does, and
 * (only for the exceptions) explicit expectations. Everything else a case checks is derived from
 * that data (expectation.ts) and cross-checked against the mock's recordings (wire-check.ts).
 */
import type { InterceptableEvent } from '../../../protocol/events.js';
import type { FailureClass, FailurePolicy } from '../../../protocol/failure-classes.js';
import type { JsonObject } from '../../../protocol/json.js';
import type { RequirementLevel } from '../../../protocol/requirements.js';
import type { Behaviour, ProcessSettings, RecordEntry, Rule } from '../../../mock-backend/index.js';
import type {
  DriverAuditOutcome,
  DriverCallEnding,
  HostPermission,
  InvokeResult,
  KnownFeature,
} from '../../driver/index.js';
import type { Finding } from '../../common/finding.js';
import type { Provoked } from './classify.js';
import type { RuleKey } from './rules.js';
import type { CaseRecords, WireFrame } from './wire-records.js';
import type { EofReading } from './per-event-eof.js';
import type { HarnessTransport } from './timing.js';

/** One call of a case: what the mock does with its intercept request, and how it is invoked. */
export interface CaseStep {
  /** A short name for the step in problems and evidence (several steps in one case). */
  label?: string;
  behaviour: Behaviour;
  /**
   * What the behaviour means, for behaviours without a fixed meaning (`raw` bytes): the
   * expectation is then derived from this instead of from the behaviour.
   */
  means?: Provoked;
  /**
   * Deliver `behaviour` late: the mock holds it until the case's deadline plus the late margin
   * has passed since the request arrived (the margin scales, so cases need no numbers).
   * `'just'`: only `justLateByMs` after the deadline, judged on when the mock sent the reply and
   * tried again while that evidence is inconclusive (kit/just-late.ts; HTTP only, where the mock
   * shares the suite's clock).
   * `'past-tolerance'`: only after the deadline plus the settle tolerance plus the late margin, so
   * a harness that takes the reply settles past the bound its settle check allows: the timing
   * alone decides, with no audit and whatever the decision (a boundary that cannot deny continues
   * either way).
   */
  late?: boolean | 'just' | 'past-tolerance';
  /** `invoke` options (sent only when the driver announces the feature). */
  invoke?: { budgetMs?: number; cancelAfterMs?: number };
  /**
   * The event type the step raises (default `tool.before`), with the suite's sample payload
   * (kit/event-payloads.ts); any other type needs the driver to announce it in `features.events`.
   */
  event?: InterceptableEvent;
  /**
   * The index of an earlier step of the case whose event this step's event names as its
   * `parentEventId` (the draft's lineage: task-workspace-lineage.md), by that event's suggested id.
   */
  parent?: number;
  /** The host's own permission before AHP is asked (needs `features.hostPermission`). */
  hostPermission?: HostPermission;
  /** Explicit expectations: only for what the derivation cannot know. */
  expect?: ExpectOverride;
}

/** Changes to the case's first subscription, for registrations a harness must refuse. */
export interface SubscriptionPatch {
  mode?: 'intercept' | 'observe';
  /** Keys removed from the subscription (e.g. `failurePolicy`). */
  omit?: string[];
  /** Keys set on the subscription (after `omit`). */
  set?: JsonObject;
}

/**
 * A check a case adds to the derived ones; returns its findings (each naming its rule in
 * kit/rules.ts), empty when it holds.
 */
export interface CaseCheck {
  name: string;
  run(run: StepRun, context: CaseRunContext): Finding[] | Promise<Finding[]>;
}

/** A harness conformance case. Its name is path-like and starts with its first requirement ID. */
export interface HarnessCase extends CaseStep {
  name: string;
  requirements: string[];
  /** Default: the catalogue level of the first requirement. */
  level?: RequirementLevel;
  transport: HarnessTransport;
  policy: FailurePolicy;
  /**
   * `timeoutMs` of the intercept subscription: `answer` (a generous deadline the backend beats),
   * `short` (a deadline the call runs into), or an exact value. Default: `short` when the
   * first step waits (hang, delay, late), else `answer`. A later step that must beat the
   * deadline needs `answer` or a number.
   */
  deadline?: 'answer' | 'short' | number;
  /** Where the backend is: the mock (default), a command that cannot be launched, or a closed port. */
  endpoint?: 'mock' | 'unlaunchable' | 'refused';
  /** HTTP bearer auth from a variable the driver has (`token`) or lacks (`missing-token`). */
  auth?: 'token' | 'missing-token';
  /** Mock-level settings (stdio process, extra leading rules). */
  mock?: { process?: ProcessSettings; rules?: Rule[] };
  /** Changes to the intercept subscription, for registrations that must be refused. */
  subscription?: SubscriptionPatch;
  /**
   * An observe subscription on the same mock, and what the mock does with its notifications: on
   * a backend entry of its own (default), or `shared` on the case's backend entry itself, beside
   * the intercept subscription (one persistent stdio process then carries both).
   */
  observe?: { behaviour: Behaviour; set?: JsonObject; entry?: 'own' | 'shared' };
  /** Asks the harness to allow this many retries (needs `features.retries`). */
  retries?: number;
  /** Driver features the case needs beyond its transport's; a missing one makes it `untested`. */
  needs?: KnownFeature[];
  /** Further calls on the same configured harness, each with its own event. */
  then?: CaseStep[];
  /** Checks beyond the derived ones, run on every step. */
  checks?: CaseCheck[];
  /**
   * What an interrupted call of the case shows only while its request is pending at the
   * interruption (a reply after a cancellation, a cleanup after expiry). An attempt whose call was
   * rightly interrupted before its request reached the mock shows nothing of it: it runs again,
   * and the case is `untested` if no attempt shows it (run-case.ts).
   */
  needsPendingRequest?: string;
  /** vitest timeout of the case in ms before scaling (default 20 s). */
  timeoutMs?: number;
}

/** What one subscription's audit entry must say. */
export interface ExpectedAudit {
  outcome: DriverAuditOutcome;
  /** Accepted failure classes of an operational failure (any of them). */
  classes?: FailureClass[];
  policy: FailurePolicy;
  /** The entry's `synthetic`, when the driver reports it. */
  synthetic?: boolean;
}

/** The expected outcome of one step, derived from the case data. */
export interface Expected {
  configure: 'accepted' | 'rejected';
  decision: 'continue' | 'deny';
  synthetic: boolean;
  interrupted: boolean;
  ending?: DriverCallEnding;
  audit: ExpectedAudit;
  /** What the mock must have seen of this call: at least one request, none, or either. */
  wire: 'delivered' | 'none' | 'any';
  /** Effect types the harness must not have advertised for the expectation to hold. */
  unadvertised?: string[];
  /** The reason of an explicit deny, as the mock sent it. */
  denyReason?: string;
  /** Why the expectation is what it is, in a few words (for evidence). */
  because: string;
  /**
   * The rule the settled outcome (decision, synthetic, interrupted, ending, the audit's outcome)
   * rests on: one rule broken the same way is one key whatever the case (kit/rules.ts).
   */
  rule: RuleKey;
  /** The rule that says whether the call is delivered (`wire`). */
  deliveryRule: RuleKey;
  /** A reply comes after the deadline: taking it breaks the deadline, not `rule`. */
  lateReply?: true;
}

/** Explicit expectations replacing derived ones (audit fields merge). */
export type ExpectOverride = Partial<Omit<Expected, 'audit'>> & { audit?: Partial<ExpectedAudit> };

/** What running one step produced. */
export interface StepRun {
  index: number;
  /** The event id the harness used (reported, else the suggested one). */
  eventId: string;
  /** The event id the suite suggested. */
  suggestedEventId: string;
  /**
   * The call id of a tool event, else the suggested event id: how evidence names the step (its
   * frames are attributed by kit/step-identity.ts, whatever identity fields they fill in).
   */
  callId: string;
  expected: Expected;
  result: InvokeResult;
  records: CaseRecords;
  /** Milliseconds from sending `invoke` to its answer, as the suite saw it. */
  elapsedMs: number;
}

/** What a check may read besides the step: the case and the configured values. */
export interface CaseRunContext {
  testCase: HarnessCase;
  timeoutMs: number;
  backendId: string;
  /** The bearer token the driver's environment holds (auth cases). */
  token: string;
  /** The URL of the HTTP mock (for leak checks). */
  httpUrl: string;
  /** The argv of the stdio mock (for leak checks). */
  stdioCommand: readonly string[];
  /** Every step run so far in this case, the current one last. */
  runs: readonly StepRun[];
  /**
   * Waits (bounded by the delivery margin) until the mock holds `count` frames of `method` of step
   * `step` (its index, `StepRun.index`; frames attributed by kit/step-identity.ts).
   */
  waitForFrames(step: number, method: string, count: number): Promise<void>;
  /** The mock's records of step `step` as they are now (stdio mocks may record after the driver answered). */
  recordsNow(step: number): CaseRecords;
  /** Everything the case's mock (of this case's lane) has recorded so far. */
  mockRecordings(): readonly RecordEntry[];
  /**
   * What the stdio mock process that read each of `frames` shows of its stdin EOF
   * (kit/per-event-eof.ts), once each is decided (bounded by the frames' own due times).
   */
  eofReadings(frames: readonly WireFrame[]): Promise<EofReading[]>;
  /** Ends the case as untested: the target cannot show what the check needs. */
  untested(reason: string): never;
}
