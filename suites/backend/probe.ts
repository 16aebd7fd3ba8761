/**
 * The probe model: a backend case is data. A probe names its requirement, the frames it sends
 * (each with a role), and how its verdict is derived; `verdict.ts` interprets it.
 *
 * Roles decide attribution, so that a backend with one defect fails exactly the requirement it
 * breaks and the other cases are `blocked` by that defect instead of failing for it:
 * - `baseline`: a plain request that must get a usable reply first; if it does not, the case
 *   cannot judge anything and is `blocked` by the fault, which names its own requirement.
 * - `subject`: the reply is judged as it is; only faults of the probe's own requirement fail
 *   the case. A fault of another requirement blocks it only when it stops the exchange short of
 *   what the case reads (`reads`); otherwise it is reported beside the verdict.
 * - `variant`: sent after a baseline worked, so anything wrong with its reply that the baseline did
 *   not already show is the probe's requirement failing (output left over from before excepted),
 *   under the probe's rule.
 */
import type { FrameSpec } from './frames.js';
import type { Refusal } from './judge.js';
import type { Rule } from './rules.js';
import type { BackendBinding } from './target.js';

/** How a step's reply is attributed (see the file comment). */
export type StepRole = 'baseline' | 'subject' | 'variant';

/**
 * What a reply must be: a decision for a valid tool.before, a JSON-RPC error, any JSON-RPC
 * response (`reply`: only its framing and envelope are judged), or nothing at all.
 */
export type Expectation = 'decision' | 'error' | 'reply' | 'silence';

/** One frame of a probe, with its role and what its reply must be. */
export interface ProbeStep {
  frame: FrameSpec;
  role: StepRole;
  expect: Expectation;
  /** Only sent when the vendor gave `--deny-input` (never referenced by index: always last). */
  ifDenyInput?: true;
}

/** A backend case, as data. */
export interface Probe {
  /** The requirement the case asserts; its name starts with it. */
  requirement: string;
  /** The path after `<requirement>/transport:<binding>/`. */
  name: string;
  /**
   * The rule the case judges: its key groups the case's own failures with the same defect in
   * other cases; its basis is the sentence the case rests on, and the case takes its level from it.
   */
  rule: Rule;
  /**
   * What the subject steps' replies are read for: any JSON-RPC response (`reply`: framing, ids,
   * liveness) or a well-formed decision result (`decision`: version, effects). Defaults to `reply`.
   */
  reads?: 'reply' | 'decision';
  /** Where the probe applies; all bindings when absent. */
  bindings?: readonly BackendBinding[];
  /** The case is `untested` without `--deny-input`. */
  needsDenyInput?: true;
  /** The case is `untested` without `--modify-input` (its steps send it). */
  needsModifyInput?: true;
  steps: readonly ProbeStep[];
  /** Pairs of step indexes whose decisions must be the same (duplicate delivery, unknown fields). */
  sameDecision?: readonly (readonly [number, number])[];
  /**
   * The JSON-RPC error code the variant steps should carry: a check of its own beside the refusal
   * case, at its rule's level (MUST for the codes the draft defines, SHOULD for -32700).
   */
  errorCode?: number;
  /** The subject steps must include a deny, else the deny path was not exercised (`untested`). */
  requireDeny?: true;
  /** Some allow-input step must be decided `[]`, else the allow path was not exercised (`untested`). */
  requireAllowed?: true;
  /** Some decision step must return an effect list, else there was nothing to judge (`untested`). */
  requireResult?: true;
  /**
   * Some subject step must return an effect of one of `types`, valid or not, else there was no
   * such value to judge (`untested`, saying `reason`).
   */
  requireReturned?: { types: readonly string[]; reason: string };
  /** Every request must be served by one process (persistent stdio survives a run). */
  sameProcess?: true;
  /** No reply may carry the bearer token (untested without one). */
  noSecretEcho?: true;
  /**
   * An error probe: the request the backend must refuse, and the rule of refusing it (shared by
   * the error-or-not case and its error-code twin, which that rule blocks).
   */
  refusal?: Refusal;
  /**
   * The case judges stdout itself: noise lines (`noise.ts`) fail it. Every other case reads past
   * them and reports them beside its verdict.
   */
  stdoutDiscipline?: true;
}

/** Shorthands for the probe tables. */
export const step = {
  baseline: (frame: FrameSpec = { send: 'intercept', input: 'allow' }): ProbeStep => ({
    frame,
    role: 'baseline',
    expect: 'decision',
  }),
  subject: (frame: FrameSpec, expect: Expectation = 'decision'): ProbeStep => ({
    frame,
    role: 'subject',
    expect,
  }),
  variant: (frame: FrameSpec, expect: Expectation = 'decision'): ProbeStep => ({
    frame,
    role: 'variant',
    expect,
  }),
  /** A subject deny-path request, sent only when `--deny-input` was given. */
  denySubject: (): ProbeStep => ({
    frame: { send: 'intercept', input: 'deny' },
    role: 'subject',
    expect: 'decision',
    ifDenyInput: true,
  }),
};

/** The steps a probe sends for a target with or without a deny input. */
export function stepsFor(probe: Probe, hasDenyInput: boolean): ProbeStep[] {
  return probe.steps.filter((s) => hasDenyInput || !s.ifDenyInput);
}

/** True when the probe applies to the binding. */
export function appliesTo(probe: Probe, binding: BackendBinding): boolean {
  return probe.bindings === undefined || probe.bindings.includes(binding);
}

/** The case name: `<requirement>/transport:<binding>/<name>`. */
export function caseName(probe: Probe, binding: BackendBinding): string {
  return `${probe.requirement}/transport:${binding}/${probe.name}`;
}
