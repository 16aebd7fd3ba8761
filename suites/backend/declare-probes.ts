/**
 * Turns a probe table into conformance cases for the provided target: one vitest test per probe
 * that applies to the target's binding, named `<ID>/transport:<binding>/<probe name>`.
 */
import { inject } from 'vitest';
import { systemClock } from '../../protocol/clock.js';
import type { JsonValue } from '../../protocol/json.js';
import type { SuiteSettings } from '../common/case-meta.js';
import { conformanceCase } from '../common/case.js';
import { CaseFailure } from '../common/finding.js';
import { hasRequirement, toFinding, type StepFault } from './faults.js';
import { describeFrame } from './frames.js';
import { scaledBackendMargins } from './margins.js';
import { appliesTo, caseName, stepsFor, type Probe, type ProbeStep } from './probe.js';
import { redactJson, redactText } from './redact.js';
import { runFrames, type FrameRun } from './frame-run.js';
import { bindingOf, secretsOf, type BackendTarget } from './target.js';
import { judgeProbe, runMayStop, type AttributedFault, type Verdict } from './verdict.js';

/** Reads the provided target and settings; throws a clear error when the CLI did not provide them. */
export function providedTarget(): { target: BackendTarget; settings: SuiteSettings } {
  const target = inject('ahpBackendTarget') as BackendTarget | undefined;
  const settings = inject('ahpSettings') as SuiteSettings | undefined;
  if (target === undefined || settings === undefined) {
    throw new Error(
      'the backend suites need a target: run them through `ahp-conformance backend`, which provides ahpBackendTarget and ahpSettings.',
    );
  }
  return { target, settings };
}

/** Longest excerpt of a reply quoted in a finding (the transcript keeps all of it). */
const ANSWER_EXCERPT_CHARS = 300;

/** What the backend answered at a step, when it answered with bytes the fault does not already quote. */
function answerAt(run: FrameRun, step: number): string | undefined {
  const obs = run.observations[step - 1];
  if (obs?.kind !== 'request' || !obs.reply.ok || obs.reply.raw === undefined) return undefined;
  const text = Buffer.from(obs.reply.raw).toString('utf8');
  return text.length > ANSWER_EXCERPT_CHARS ? `${text.slice(0, ANSWER_EXCERPT_CHARS)}...` : text;
}

/** One fault as a sentence: the step and what it sent, the requirement, what was wrong, what came back. */
export function faultText(f: StepFault, steps: readonly ProbeStep[], run?: FrameRun): string {
  const s = steps[f.step - 1];
  const sent = s === undefined ? '' : ` (${describeFrame(s.frame)})`;
  const answer = run === undefined ? undefined : answerAt(run, f.step);
  const answered = answer === undefined ? '' : `; the backend answered ${answer}`;
  return `step ${f.step}${sent}${f.requirement === undefined ? '' : ` [${f.requirement}]`}: ${f.message}${answered}`;
}

/** The evidence of a case: its basis, the verdict's faults (as `findings`) and every frame exchanged, secrets redacted. */
export function evidenceOf(
  probe: Probe,
  steps: readonly ProbeStep[],
  run: FrameRun,
  verdict: Verdict,
  secrets: readonly string[],
): Record<string, JsonValue> {
  const text = (f: StepFault) => faultText(f, steps, run);
  const findings = verdict.status === 'pass' ? [] : verdict.faults.map(text);
  const others = verdict.others.map(text);
  return redactJson(
    {
      basis: { ...probe.rule.basis },
      findings,
      // The finding that keeps a blocked case from being judged, as data (rule, sentence, this occurrence).
      ...(verdict.status === 'blocked'
        ? { blockedBy: toFinding(verdict.by, text(verdict.by)) as unknown as JsonValue }
        : {}),
      ...(others.length > 0 ? { otherFindings: others } : {}),
      transcript: run.transcript as unknown as JsonValue,
    },
    secrets,
  );
}

/**
 * Frame runs by their steps: probes that send the same frames in the same roles judge the same run
 * (one backend process, one set of exchanges), started by whichever of their cases runs first.
 */
const frameRuns = new Map<string, Promise<FrameRun>>();

/** Declares one case per applicable probe. */
export function declareProbes(probes: readonly Probe[]): void {
  const { target, settings } = providedTarget();
  const binding = bindingOf(target.endpoint);
  const margins = scaledBackendMargins(settings.timeoutScale);
  const secrets = secretsOf(target);
  for (const probe of probes) {
    if (!appliesTo(probe, binding)) continue;
    const steps = stepsFor(probe, target.denyInput !== undefined);
    // Any step of a persistent run may meet a fresh process (after one ended), with its warm-up.
    const perStep =
      target.deadlineMs +
      (binding === 'http' ? 0 : binding === 'stdio-persistent' ? margins.warmUpMs : margins.spawnMs);
    const budget =
      steps.length * (perStep + margins.silenceWindowMs) + margins.killGraceMs + margins.caseSlackMs;
    conformanceCase(
      {
        name: caseName(probe, binding),
        requirements: [probe.requirement],
        level: probe.rule.basis.level,
        transports: [binding],
        timeoutMs: budget,
      },
      async (ctx) => {
        if (probe.needsDenyInput && target.denyInput === undefined) {
          ctx.untested('no --deny-input was given, so the deny path cannot be exercised');
        }
        if (probe.needsModifyInput && target.modifyInput === undefined) {
          ctx.untested(
            'no --modify-input was given, so no value the backend returns (a modify, an inject) could be asked for',
          );
        }
        const frames = steps.map((s) => s.frame);
        const key = JSON.stringify(steps);
        let shared = frameRuns.get(key);
        if (!shared) {
          shared = runFrames(frames, {
            target,
            clock: systemClock,
            silenceWindowMs: margins.silenceWindowMs,
            killGraceMs: margins.killGraceMs,
            warmUpMs: margins.warmUpMs,
            stopAfter: (observations) => runMayStop(probe, steps, observations),
          });
          frameRuns.set(key, shared);
        }
        const run = await shared;
        if (run.notReady !== undefined) {
          // A start that never completed says nothing about conformance: the case is untested.
          ctx.evidence(redactJson({ transcript: run.transcript as unknown as JsonValue }, secrets));
          ctx.untested(run.notReady);
        }
        const verdict = judgeProbe(probe, steps, run.observations, binding, secrets);
        ctx.evidence(evidenceOf(probe, steps, run, verdict, secrets));
        const finding = (f: AttributedFault) => toFinding(f, redactText(faultText(f, steps, run), secrets));
        if (verdict.status === 'untested') ctx.untested(verdict.reason);
        if (verdict.status === 'blocked') ctx.blocked(finding(verdict.by));
        if (verdict.status === 'fail') {
          // Every fault of a failing case is the probe's requirement's, or one it re-attributed.
          throw new CaseFailure(verdict.faults.filter(hasRequirement).map(finding));
        }
      },
    );
  }
}
