/**
 * The verdict of one backend case, derived from its probe (data) and what its frame run observed.
 * See `probe.ts` for how step roles attribute a fault to a requirement. Each case judges its own
 * exchange: a defect of another requirement blocks it only when that defect kept the case from
 * seeing what it reads, and then the case names that defect (`blocked`) instead of failing.
 */
import { byRank, findingKey } from '../common/finding.js';
import type { Effect } from '../../protocol/wire-types.js';
import { hasRequirement, STAGE_RANK, type StepFault } from './faults.js';
import { decisionFaults, errorFaults, replyFaults, silenceFaults } from './judge.js';
import { advertisementOf, DENY_ONLY } from './frames.js';
import { noiseFault } from './noise.js';
import type { Probe, ProbeStep } from './probe.js';
import { probeFaults } from './probe-checks.js';
import type { Rule } from './rules.js';
import type { Observation } from './frame-run.js';
import type { BackendBinding } from './target.js';

/** A fault that names its requirement: what a case can be blocked by. */
export type AttributedFault = StepFault & { requirement: string };

/**
 * A case's verdict: pass; fail with its own faults; blocked by another defect's fault (`by`,
 * most fundamental of `faults`); or untested with the reason. `others` are reported beside it.
 */
export type Verdict =
  | { status: 'pass'; faults: []; others: StepFault[] }
  | { status: 'fail'; faults: StepFault[]; others: StepFault[] }
  | { status: 'blocked'; by: AttributedFault; faults: StepFault[]; others: StepFault[] }
  | { status: 'untested'; reason: string; faults: StepFault[]; others: StepFault[] };

/** A decision reduced to what must repeat: effect types, and the code of a deny. */
export function decisionSignature(effects: readonly Effect[]): string {
  if (effects.length === 0) return '[]';
  return effects
    .map((e) => (e.type === 'deny' && e.code !== undefined ? `deny(${e.code})` : e.type))
    .join(', ');
}

/**
 * The verdict of a case kept from judging by `faults`: blocked by the most fundamental one that
 * names a requirement; untested only when none does (the backend could not be reached at all).
 */
function unjudged(faults: readonly StepFault[], others: StepFault[]): Verdict {
  const named = faults.filter(hasRequirement).map((f) => ({ f, rank: STAGE_RANK[f.stage] }));
  const by = byRank(named)[0]?.f;
  if (by) return { status: 'blocked', by, faults: [...faults], others };
  const first = faults[0];
  const reason =
    first === undefined
      ? 'the backend could not be judged'
      : `step ${first.step} could not reach the backend: ${first.message}`;
  return { status: 'untested', reason, faults: [...faults], others };
}

interface StepOutcome {
  faults: StepFault[];
  effects?: Effect[];
  signature?: string;
  returnedTypes?: string[];
  error?: { code: number };
}

function judgeStep(probe: Probe, s: ProbeStep, obs: Observation): StepOutcome {
  if (obs.kind === 'notification') {
    return { faults: silenceFaults(obs, s.frame.send === 'observe' && s.frame.flaw !== undefined) };
  }
  if (s.expect === 'error') {
    return errorFaults(obs, probe.requirement, probe.refusal ?? { what: 'the request', rule: probe.rule });
  }
  if (s.expect === 'reply') return { faults: replyFaults(obs) };
  return decisionFaults(obs, s.frame.send === 'intercept' ? advertisementOf(s.frame) : DENY_ONLY);
}

/**
 * A fault of a variant step as a failure of the probe's rule: a variant changes one thing about
 * a request that worked, so what goes wrong is that rule broken, the way the fault says (its own
 * rule and way become the way, so that the same symptom groups across cases).
 */
export function asSymptom(f: StepFault, requirement: string, rule: Rule): StepFault {
  if (f.rule.key === rule.key && f.requirement === requirement) return f;
  const symptom = f.requirement === requirement ? '' : ` (${f.requirement ?? 'transport'} symptom)`;
  return {
    ...f,
    requirement,
    rule,
    way: findingKey({ rule: f.rule.key, ...(f.way === undefined ? {} : { way: f.way }) }),
    summary: `${rule.summary} (${f.summary})`,
    message: `${f.message}${symptom}`,
  };
}

/**
 * Whether a fault of another requirement keeps a case from judging: no reply at all always
 * does; a reply that is not a valid response to the request, or not a decision, does for a case
 * that reads decisions.
 */
export function blocks(f: StepFault, reads: 'reply' | 'decision'): boolean {
  if (f.requirement === undefined || f.stage === 'transport') return true;
  return reads === 'decision' && f.stage !== 'content';
}

/**
 * Whether a frame run may stop after its latest observation: a baseline without a usable decision
 * leaves nothing to judge, and two steps in a row that got no reply at all show the backend cannot
 * be exercised further (each failure makes the transport replace the process, and the rest would
 * only repeat it). A reply that is wrong is still an exchange: the run goes on.
 */
export function runMayStop(
  probe: Probe,
  steps: readonly ProbeStep[],
  observations: readonly Observation[],
): boolean {
  const faultsAt = (i: number): StepFault[] => {
    const s = steps[i];
    const obs = observations[i];
    return s === undefined || obs === undefined ? [] : judgeStep(probe, s, obs).faults;
  };
  const noReply = (i: number) => faultsAt(i).some((f) => blocks(f, 'reply'));
  const last = observations.length - 1;
  if (steps[last]?.role === 'baseline' && faultsAt(last).some((f) => blocks(f, 'decision'))) return true;
  return noReply(last) && noReply(last - 1);
}

/** True when the step sends the allow input as a plain, valid request. */
function plainAllow(s: ProbeStep, steps: readonly ProbeStep[]): boolean {
  const f = s.frame.send === 'repeat' ? steps[s.frame.of]?.frame : s.frame;
  return (
    f !== undefined &&
    f.send === 'intercept' &&
    f.input === 'allow' &&
    f.protocolVersion === undefined &&
    f.eventType === undefined &&
    f.flaw === undefined
  );
}

/** Derives the verdict; `steps` are the ones to send (see `stepsFor`), of which a stopped run sent a prefix. */
export function judgeProbe(
  probe: Probe,
  steps: readonly ProbeStep[],
  observations: readonly Observation[],
  binding: BackendBinding,
  secrets: readonly string[] = [],
): Verdict {
  const reads = probe.reads ?? 'reply';
  const mine: StepFault[] = [];
  const blockers: StepFault[] = [];
  const others: StepFault[] = [];
  const signatureAt = new Map<number, string>();
  const effectsAt = new Map<number, Effect[]>();
  const returnedBySubjects = new Set<string>();
  const errorAt = new Map<number, { code: number }>();
  // Content defects a baseline already showed: a variant repeating them is not the variant's doing.
  const baselineShowed = new Set<string>();
  // A notification that got a reply: output reported by the next request is that reply, judged there.
  let answeredNotification = false;
  for (const [i, s] of steps.entries()) {
    const obs = observations[i];
    // The run stopped early (see `runMayStop`): what was sent already decides.
    if (!obs) break;
    // Noise is judged by what it is, wherever it came: the stdout cases fail for it, the rest read past it.
    const noise = noiseFault(obs.step, obs.noise);
    if (noise) (probe.stdoutDiscipline ? mine : others).push(noise);
    const outcome = judgeStep(probe, s, obs);
    if (outcome.signature !== undefined) signatureAt.set(i, outcome.signature);
    if (outcome.effects) effectsAt.set(i, outcome.effects);
    if (s.role === 'subject') for (const t of outcome.returnedTypes ?? []) returnedBySubjects.add(t);
    if (outcome.error) errorAt.set(i, outcome.error);
    const afterAnswer = answeredNotification;
    answeredNotification =
      obs.kind === 'notification' && outcome.faults.some((f) => f.requirement === 'AHP-RPC-002');
    if (s.role === 'baseline') {
      const stop = outcome.faults.filter((f) => blocks(f, 'decision'));
      if (stop.length > 0) return unjudged(stop, others);
      for (const f of outcome.faults) {
        others.push(f);
        if (f.requirement !== undefined) baselineShowed.add(f.requirement);
      }
    } else if (s.role === 'subject') {
      for (const f of outcome.faults) {
        if (f.ambient && afterAnswer) others.push(f);
        else if (f.requirement === probe.requirement) mine.push(f);
        else (blocks(f, reads) ? blockers : others).push(f);
      }
    } else {
      for (const f of outcome.faults) {
        if (probe.errorCode !== undefined) {
          // The code twin judges only the code; the error-or-not behaviour is its MUST twin's,
          // whose failure (under the refusal's rule) blocks it.
          const refusal = probe.refusal?.rule ?? probe.rule;
          if (s.expect === 'error') blockers.push(asSymptom(f, probe.requirement, refusal));
          else others.push(f);
        } else if (f.ambient || f.requirement === undefined) blockers.push(f);
        else if (f.stage === 'content' && baselineShowed.has(f.requirement)) others.push(f);
        else mine.push(asSymptom(f, probe.requirement, probe.rule));
      }
    }
  }
  const checkProcess =
    probe.sameProcess === true &&
    binding === 'stdio-persistent' &&
    mine.length === 0 &&
    blockers.length === 0;
  if (probe.noSecretEcho && secrets.length === 0) {
    return {
      status: 'untested',
      reason: 'no --bearer-token-env was given, so there is no credential to watch for',
      faults: [],
      others,
    };
  }
  mine.push(...probeFaults(probe, { signatureAt, errorAt }, steps, observations, checkProcess, secrets));
  if (mine.length > 0) return { status: 'fail', faults: mine, others: [...blockers, ...others] };
  if (blockers.length > 0) return unjudged(blockers, others);
  if (probe.requireAllowed) {
    const allowSteps = [...signatureAt].filter(([i]) => {
      const s = steps[i];
      return s !== undefined && s.expect === 'decision' && plainAllow(s, steps);
    });
    if (!allowSteps.some(([, signature]) => signature === '[]')) {
      const seen = [...new Set(allowSteps.map(([, signature]) => signature))].join(' / ');
      const answered = seen === '' ? 'it gave no decision' : `it answered ${seen}`;
      return {
        status: 'untested',
        reason: `the backend never answered the allow input with no effects ([]): ${answered}, so the path of a call let through unchanged was not exercised; pass --allow-input with a tool input your policy answers with []`,
        faults: [],
        others,
      };
    }
  }
  if (probe.requireResult && ![...effectsAt.keys()].some((i) => steps[i]?.expect === 'decision')) {
    return {
      status: 'untested',
      reason:
        'the backend returned no effect list to any decision request, so there was no returned effect to hold against the advertisement',
      faults: [],
      others,
    };
  }
  if (probe.requireReturned && !probe.requireReturned.types.some((t) => returnedBySubjects.has(t))) {
    return { status: 'untested', reason: probe.requireReturned.reason, faults: [], others };
  }
  if (probe.requireDeny) {
    const denied = [...effectsAt].some(
      ([i, effects]) => steps[i]?.role === 'subject' && effects.some((e) => e.type === 'deny'),
    );
    if (!denied) {
      return {
        status: 'untested',
        reason: 'the backend did not deny the --deny-input, so the deny path was not exercised',
        faults: [],
        others,
      };
    }
  }
  if (observations.length < steps.length) {
    // Defensive: a stopped run always leaves a fault behind, so this is not expected.
    return {
      status: 'untested',
      reason: `the frame run stopped after step ${observations.length} of ${steps.length}`,
      faults: [],
      others,
    };
  }
  return { status: 'pass', faults: [], others };
}
