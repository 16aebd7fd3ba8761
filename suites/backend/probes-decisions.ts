import { RULES } from './rules.js';
import type { Probe } from './probe.js';
import { DECISION_RUN } from './probes-wire.js';

/**
 * Decision probes: with only deny advertised, a backend returns nothing unadvertised
 * (AHP-CAP-001, judged on every effect list it returned) and `[]` or one deny with a non-empty
 * reason (AHP-DEC-001). The allow path is exercised only when the allow input (`--allow-input`)
 * is decided `[]`; the deny path needs an input the vendor's policy denies (`--deny-input`);
 * either missing leaves its DEC-001 case `untested`.
 * All of them judge the common decision run.
 */
export const DECISION_PROBES: readonly Probe[] = [
  {
    requirement: 'AHP-CAP-001',
    name: 'only-advertised-effects',
    rule: RULES.advertisedOnly,
    reads: 'decision',
    // Every returned effect is held against the advertisement, whatever the policy decided: a
    // backend that denies everything is judged on its denies.
    requireResult: true,
    steps: DECISION_RUN,
  },
  {
    requirement: 'AHP-DEC-001',
    name: 'empty-or-one-deny',
    rule: RULES.effectList,
    reads: 'decision',
    requireAllowed: true,
    steps: DECISION_RUN,
  },
  {
    requirement: 'AHP-DEC-001',
    name: 'deny-path/one-deny-with-a-reason',
    rule: RULES.effectList,
    reads: 'decision',
    needsDenyInput: true,
    requireDeny: true,
    steps: DECISION_RUN,
  },
];
