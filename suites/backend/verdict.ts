/**
 * The verdict of one backend case, derived from its probe (data) and what the session observed.
 * See `probe.ts` for how step roles attribute a finding to a requirement. Each case judges its own
 * exchange: a defect of another requirement leaves it `untested` only when that defect kept the
 * case from seeing what it reads.
 */
import type { Effect } from '../../protocol/wire-types.js';
import { decisionFindings, errorFindings, silenceFindings, type Finding } from './judge.js';
import type { Probe, ProbeStep } from './probe.js';
import type { Observation } from './session.js';
import type { BackendBinding } from './target.js';

/** A case's verdict: pass, fail with its own findings, or untested with the reason; `others` are reported beside it. */
export type Verdict =
  | { status: 'pass'; findings: []; others: Finding[] }
  | { status: 'fail'; findings: Finding[]; others: Finding[] }
  | { status: 'untested'; reason: string; findings: Finding[]; others: Finding[] };

/** A decision reduced to what must repeat: effect types, and the code of a deny. */
export function decisionSignature(effects: readonly Effect[]): string {
  if (effects.length === 0) return '[]';
  return effects
    .map((e) => (e.type === 'deny' && e.code !== undefined ? `deny(${e.code})` : e.type))
    .join(', ');
}

function blocked(findings: readonly Finding[]): string {
  const [first] = findings;
  if (!first) return 'the backend could not be judged';
  const owner = first.requirement === undefined ? '' : `; judged under ${first.requirement}`;
  const more = findings.length > 1 ? ` (and ${findings.length - 1} more)` : '';
  return `step ${first.step} got no usable reply: ${first.message}${owner}${more}`;
}

interface StepOutcome {
  findings: Finding[];
  effects?: Effect[];
  signature?: string;
  error?: { code: number };
}

function judgeStep(probe: Probe, s: ProbeStep, obs: Observation): StepOutcome {
  if (obs.kind === 'notification') return { findings: silenceFindings(obs) };
  if (s.expect === 'error') return errorFindings(obs, probe.requirement, probe.what ?? 'the request');
  return decisionFindings(obs);
}

/**
 * Whether a finding of another requirement keeps a case from judging: no reply at all always
 * does; a reply that is not a valid response to the request, or not a decision, does for a case
 * that reads decisions.
 */
export function blocks(f: Finding, reads: 'reply' | 'decision'): boolean {
  if (f.requirement === undefined || f.stage === 'transport') return true;
  return reads === 'decision' && f.stage !== 'content';
}

/**
 * Whether a session may stop after its latest observation: a baseline without a usable decision
 * leaves nothing to judge, and two steps in a row that got no reply at all show the backend cannot
 * be exercised further (each failure makes the transport replace the process, and the rest would
 * only repeat it). A reply that is wrong is still an exchange: the session goes on.
 */
export function sessionMayStop(
  probe: Probe,
  steps: readonly ProbeStep[],
  observations: readonly Observation[],
): boolean {
  const findingsAt = (i: number): Finding[] => {
    const s = steps[i];
    const obs = observations[i];
    return s === undefined || obs === undefined ? [] : judgeStep(probe, s, obs).findings;
  };
  const noReply = (i: number) => findingsAt(i).some((f) => blocks(f, 'reply'));
  const last = observations.length - 1;
  if (steps[last]?.role === 'baseline' && findingsAt(last).some((f) => blocks(f, 'decision'))) return true;
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
    f.eventType === undefined
  );
}

/** Derives the verdict; `steps` are the ones to send (see `stepsFor`), of which a stopped session sent a prefix. */
export function judgeProbe(
  probe: Probe,
  steps: readonly ProbeStep[],
  observations: readonly Observation[],
  binding: BackendBinding,
  secrets: readonly string[] = [],
): Verdict {
  const reads = probe.reads ?? 'reply';
  const mine: Finding[] = [];
  const blockers: Finding[] = [];
  const others: Finding[] = [];
  const signatureAt = new Map<number, string>();
  const effectsAt = new Map<number, Effect[]>();
  const errorAt = new Map<number, { code: number }>();
  // Content defects a baseline already showed: a variant repeating them is not the variant's doing.
  const baselineShowed = new Set<string>();
  for (const [i, s] of steps.entries()) {
    const obs = observations[i];
    // The session stopped early (see `sessionMayStop`): what was sent already decides.
    if (!obs) break;
    const outcome = judgeStep(probe, s, obs);
    if (outcome.signature !== undefined) signatureAt.set(i, outcome.signature);
    if (outcome.effects) effectsAt.set(i, outcome.effects);
    if (outcome.error) errorAt.set(i, outcome.error);
    if (s.role === 'baseline') {
      const stop = outcome.findings.filter((f) => blocks(f, 'decision'));
      if (stop.length > 0) {
        return { status: 'untested', reason: blocked(stop), findings: stop, others };
      }
      for (const f of outcome.findings) {
        others.push(f);
        if (f.requirement !== undefined) baselineShowed.add(f.requirement);
      }
    } else if (s.role === 'subject') {
      for (const f of outcome.findings) {
        if (f.requirement === probe.requirement) mine.push(f);
        else (blocks(f, reads) ? blockers : others).push(f);
      }
    } else {
      for (const f of outcome.findings) {
        if (probe.errorCode !== undefined) {
          // The code twin judges only the code; the error-or-not behaviour is its MUST twin's.
          (s.expect === 'error' ? blockers : others).push(f);
        } else if (f.ambient || f.requirement === undefined) blockers.push(f);
        else if (f.stage === 'content' && baselineShowed.has(f.requirement)) others.push(f);
        else {
          const symptom = f.requirement === probe.requirement ? '' : ` (${f.requirement} symptom)`;
          mine.push({ ...f, requirement: probe.requirement, message: `${f.message}${symptom}` });
        }
      }
    }
  }
  for (const [a, b] of probe.sameDecision ?? []) {
    const first = signatureAt.get(a);
    const second = signatureAt.get(b);
    if (first !== undefined && second !== undefined && first !== second) {
      mine.push({
        requirement: probe.requirement,
        step: b + 1,
        message: `step ${b + 1} was decided ${second} but step ${a + 1} was decided ${first}`,
        stage: 'content',
      });
    }
  }
  if (probe.errorCode !== undefined) {
    for (const [i, error] of errorAt) {
      if (steps[i]?.role === 'variant' && error.code !== probe.errorCode) {
        mine.push({
          requirement: probe.requirement,
          step: i + 1,
          message: `${probe.what ?? 'the request'} got error code ${error.code}; the code due is ${probe.errorCode}`,
          stage: 'content',
        });
      }
    }
  }
  // A replacement after a failed step is the transport's doing (it retires a process that broke
  // the framing or missed a deadline); only a replacement after clean replies is the backend's.
  if (probe.sameProcess && binding === 'stdio-persistent' && mine.length === 0 && blockers.length === 0) {
    const replies = observations.filter((o) => o.kind === 'request');
    const clean = replies.every((o) => o.reply.ok);
    const pids = new Set(replies.flatMap((o) => o.pids));
    if (clean && pids.size > 1) {
      mine.push({
        requirement: probe.requirement,
        step: observations.length,
        message: `the persistent backend process was replaced during the run (PIDs ${[...pids].join(', ')})`,
        stage: 'transport',
      });
    }
  }
  if (probe.noSecretEcho) {
    if (secrets.length === 0) {
      return {
        status: 'untested',
        reason: 'no --bearer-token-env was given, so there is no credential to watch for',
        findings: [],
        others,
      };
    }
    for (const obs of observations) {
      const raws = obs.kind === 'request' ? [obs.reply.raw] : obs.inFrames;
      const text = raws.map((r) => (r === undefined ? '' : Buffer.from(r).toString('utf8'))).join('\n');
      if (secrets.some((secret) => text.includes(secret))) {
        mine.push({
          requirement: probe.requirement,
          step: obs.step + 1,
          message:
            'the reply carries the bearer token (shown as [redacted]); credentials belong in the Authorization header only',
          stage: 'content',
        });
      }
    }
  }
  if (mine.length > 0) return { status: 'fail', findings: mine, others: [...blockers, ...others] };
  if (blockers.length > 0)
    return { status: 'untested', reason: blocked(blockers), findings: blockers, others };
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
        findings: [],
        others,
      };
    }
  }
  if (probe.requireDeny) {
    const denied = [...effectsAt].some(
      ([i, effects]) => steps[i]?.role === 'subject' && effects.some((e) => e.type === 'deny'),
    );
    if (!denied) {
      return {
        status: 'untested',
        reason: 'the backend did not deny the --deny-input, so the deny path was not exercised',
        findings: [],
        others,
      };
    }
  }
  if (observations.length < steps.length) {
    // Defensive: a stopped session always leaves a finding behind, so this is not expected.
    return {
      status: 'untested',
      reason: `the session stopped after step ${observations.length} of ${steps.length}`,
      findings: [],
      others,
    };
  }
  return { status: 'pass', findings: [], others };
}
