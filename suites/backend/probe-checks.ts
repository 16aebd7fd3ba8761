/**
 * The checks of a probe that compare across its steps (two decisions that must be the same, an
 * error code, the process that served the run, a credential in any reply), each a fault of the
 * probe's own rule. Pure; `verdict.ts` decides when they apply.
 */
import type { StepFault } from './faults.js';
import { RULES } from './rules.js';
import type { Probe, ProbeStep } from './probe.js';
import type { Observation } from './frame-run.js';

/**
 * What a replaced process shows: every reply was clean, so the process ended between two requests.
 * After a notification the backend cannot process, that notification is what ended it.
 */
const REPLACED_SUMMARY: Readonly<Record<string, string>> = {
  [RULES.unprocessableNotificationSilence.key]:
    'a notification the backend cannot process ended the persistent backend process: a new process answered the request after it',
  default: 'the persistent backend process ended during a run: a new process answered the requests after it',
};

/** The faults of the probe's own rule that compare steps, processes or credentials. */
export function probeFaults(
  probe: Probe,
  run: { signatureAt: Map<number, string>; errorAt: Map<number, { code: number }> },
  steps: readonly ProbeStep[],
  observations: readonly Observation[],
  checkProcess: boolean,
  secrets: readonly string[],
): StepFault[] {
  const own = (step: number, way: string, message: string, stage: StepFault['stage']): StepFault => ({
    requirement: probe.requirement,
    step,
    stage,
    rule: probe.rule,
    way,
    summary: probe.rule.summary,
    message,
  });
  const out: StepFault[] = [];
  for (const [a, b] of probe.sameDecision ?? []) {
    const first = run.signatureAt.get(a);
    const second = run.signatureAt.get(b);
    if (first !== undefined && second !== undefined && first !== second) {
      const message = `step ${b + 1} was decided ${second} but step ${a + 1} was decided ${first}`;
      out.push(own(b + 1, 'decision-changed', message, 'content'));
    }
  }
  if (probe.errorCode !== undefined) {
    for (const [i, error] of run.errorAt) {
      if (steps[i]?.role === 'variant' && error.code !== probe.errorCode) {
        const what = probe.refusal?.what ?? 'the request';
        const message = `${what} got error code ${error.code}; the code due is ${probe.errorCode}`;
        out.push(own(i + 1, 'error-code', message, 'content'));
      }
    }
  }
  // A replacement after a failed step is the transport's doing (it retires a process that broke
  // the framing or missed a deadline); only a replacement after clean replies is the backend's.
  if (checkProcess) {
    const replies = observations.filter((o) => o.kind === 'request');
    const pids = new Set(replies.flatMap((o) => o.pids));
    if (replies.every((o) => o.reply.ok) && pids.size > 1) {
      const message = `the persistent backend process was replaced during the run (PIDs ${[...pids].join(', ')})`;
      out.push({
        ...own(observations.length, 'process-replaced', message, 'transport'),
        summary: REPLACED_SUMMARY[probe.rule.key] ?? REPLACED_SUMMARY.default!,
      });
    }
  }
  if (probe.noSecretEcho) {
    for (const obs of observations) {
      const raws = obs.kind === 'request' ? [obs.reply.raw] : obs.inFrames;
      const text = raws.map((r) => (r === undefined ? '' : Buffer.from(r).toString('utf8'))).join('\n');
      if (secrets.some((secret) => text.includes(secret))) {
        const message =
          'the reply carries the bearer token (shown as [redacted]); credentials belong in the Authorization header only';
        out.push(own(obs.step + 1, 'echoed', message, 'content'));
      }
    }
  }
  return out;
}
