import type { Probe } from './probe.js';
import { DECISION_RUN } from './probes-wire.js';

/**
 * Decision probes: with only deny advertised, a backend returns nothing unadvertised
 * (AHP-CAP-001) and `[]` or one deny with a non-empty reason (AHP-DEC-001). The deny path needs
 * an input the vendor's policy denies (`--deny-input`); without it the deny-path case is
 * `untested`. All of them judge the common decision run.
 */
export const DECISION_PROBES: readonly Probe[] = [
  {
    requirement: 'AHP-CAP-001',
    name: 'only-advertised-effects',
    steps: DECISION_RUN,
  },
  {
    requirement: 'AHP-DEC-001',
    name: 'empty-or-one-deny',
    steps: DECISION_RUN,
  },
  {
    requirement: 'AHP-DEC-001',
    name: 'deny-path/one-deny-with-a-reason',
    needsDenyInput: true,
    requireDeny: true,
    steps: DECISION_RUN,
  },
];
