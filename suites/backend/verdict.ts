/**
 * The verdict of one backend case, derived from its probe (data) and what the session observed.
 * See `probe.ts` for how step roles attribute a finding to a requirement.
 */
import type { Effect, JsonRpcErrorObject } from '../../protocol/wire-types.js';
import { decisionFindings, errorFindings, silenceFindings, type Finding } from './judge.js';
import type { Probe, ProbeStep } from './probe.js';
import type { Observation } from './session.js';
import type { BackendBinding } from './target.js';

/** A case's verdict: pass, fail with its own findings, or untested with the reason. */
export type Verdict =
  | { status: 'pass'; findings: [] }
  | { status: 'fail'; findings: Finding[]; others: Finding[] }
  | { status: 'untested'; reason: string; findings: Finding[] };

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
  error?: JsonRpcErrorObject;
}

function judgeStep(probe: Probe, s: ProbeStep, obs: Observation): StepOutcome {
  if (obs.kind === 'notification') return { findings: silenceFindings(obs) };
  if (s.expect === 'error') return errorFindings(obs, probe.requirement, probe.what ?? 'the request');
  return decisionFindings(obs);
}

/**
 * Whether a session may stop after its latest observation: a failed baseline leaves nothing to
 * judge, and two failed steps in a row show the backend cannot be exercised further (each failure
 * makes the transport replace the process, and the rest would only repeat it).
 */
export function sessionMayStop(
  probe: Probe,
  steps: readonly ProbeStep[],
  observations: readonly Observation[],
): boolean {
  const failedAt = (i: number): boolean => {
    const s = steps[i];
    const obs = observations[i];
    return s !== undefined && obs !== undefined && judgeStep(probe, s, obs).findings.length > 0;
  };
  const last = observations.length - 1;
  if (!failedAt(last)) return false;
  return steps[last]?.role === 'baseline' || failedAt(last - 1);
}

/** Derives the verdict; `steps` are the ones to send (see `stepsFor`), of which a stopped session sent a prefix. */
export function judgeProbe(
  probe: Probe,
  steps: readonly ProbeStep[],
  observations: readonly Observation[],
  binding: BackendBinding,
  secrets: readonly string[] = [],
): Verdict {
  const mine: Finding[] = [];
  const others: Finding[] = [];
  const effectsAt = new Map<number, Effect[]>();
  const errorAt = new Map<number, JsonRpcErrorObject>();
  for (const [i, s] of steps.entries()) {
    const obs = observations[i];
    // The session stopped early (see `sessionMayStop`): what was sent already decides.
    if (!obs) break;
    const outcome = judgeStep(probe, s, obs);
    if (outcome.effects) effectsAt.set(i, outcome.effects);
    if (outcome.error) errorAt.set(i, outcome.error);
    if (s.role === 'baseline') {
      if (outcome.findings.length > 0) {
        return { status: 'untested', reason: blocked(outcome.findings), findings: outcome.findings };
      }
    } else if (s.role === 'subject') {
      for (const f of outcome.findings) (f.requirement === probe.requirement ? mine : others).push(f);
    } else {
      for (const f of outcome.findings) {
        // A SHOULD probe leaves the MUST behaviour to its MUST twin: it only judges the code.
        if (f.ambient || f.requirement === undefined || probe.errorCode !== undefined) others.push(f);
        else {
          const symptom = f.requirement === probe.requirement ? '' : ` (${f.requirement} symptom)`;
          mine.push({ ...f, requirement: probe.requirement, message: `${f.message}${symptom}` });
        }
      }
    }
  }
  for (const [a, b] of probe.sameDecision ?? []) {
    const first = effectsAt.get(a);
    const second = effectsAt.get(b);
    if (first && second && decisionSignature(first) !== decisionSignature(second)) {
      mine.push({
        requirement: probe.requirement,
        step: b + 1,
        message: `step ${b + 1} was decided ${decisionSignature(second)} but step ${a + 1} was decided ${decisionSignature(first)}`,
      });
    }
  }
  if (probe.errorCode !== undefined) {
    for (const [i, error] of errorAt) {
      if (steps[i]?.role === 'variant' && error.code !== probe.errorCode) {
        mine.push({
          requirement: probe.requirement,
          step: i + 1,
          message: `${probe.what ?? 'the request'} got error code ${error.code}; the recommended code is ${probe.errorCode}`,
        });
      }
    }
  }
  // A replacement after a failed step is the transport's doing (it retires a process that broke
  // the framing or missed a deadline); only a replacement after clean replies is the backend's.
  if (probe.sameProcess && binding === 'stdio-persistent' && mine.length === 0 && others.length === 0) {
    const pids = new Set(observations.flatMap((o) => (o.kind === 'request' ? o.pids : [])));
    if (pids.size > 1) {
      mine.push({
        requirement: probe.requirement,
        step: observations.length,
        message: `the persistent backend process was replaced during the run (PIDs ${[...pids].join(', ')})`,
      });
    }
  }
  if (probe.noSecretEcho) {
    if (secrets.length === 0) {
      return {
        status: 'untested',
        reason: 'no --bearer-token-env was given, so there is no credential to watch for',
        findings: [],
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
        });
      }
    }
  }
  if (mine.length > 0) return { status: 'fail', findings: mine, others };
  if (others.length > 0) return { status: 'untested', reason: blocked(others), findings: others };
  if (probe.requireDeny) {
    const denied = [...effectsAt].some(
      ([i, effects]) => steps[i]?.role === 'subject' && effects.some((e) => e.type === 'deny'),
    );
    if (!denied) {
      return {
        status: 'untested',
        reason: 'the backend did not deny the --deny-input, so the deny path was not exercised',
        findings: [],
      };
    }
  }
  return { status: 'pass', findings: [] };
}
