import { RULES } from './rules.js';
import type { Probe } from './probe.js';
import { step } from './probe.js';
import { DECISION_RUN } from './probes-wire.js';

/** The modify path: one tool.before with the vendor's `--modify-input`, advertising everything. */
const MODIFY_RUN = [step.subject({ send: 'intercept', input: 'modify' })] as const;

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

/**
 * Value probes: on the modify path every value the backend returns is validated. An inject's
 * messages are model-visible content (AHP-CONTENT-001); a modify fits its target (AHP-EDIT-001).
 * A `return` at tool.before is not judged: the draft gives its value no shape there
 * (effect.schema.json accepts any JSON). Each is `untested` when the backend returned none.
 */
export const VALUE_PROBES: readonly Probe[] = [
  {
    requirement: 'AHP-CONTENT-001',
    name: 'modify-path/injected-messages-are-canonical-content',
    rule: RULES.returnedContent,
    reads: 'decision',
    needsModifyInput: true,
    requireReturned: {
      types: ['inject'],
      reason:
        'the backend returned no inject for the --modify-input, so no model-visible content it returns was validated (at tool.before only an inject carries content of a defined shape)',
    },
    steps: MODIFY_RUN,
  },
  {
    requirement: 'AHP-EDIT-001',
    name: 'modify-path/modify-value-fits-its-target',
    rule: RULES.returnedEdit,
    reads: 'decision',
    needsModifyInput: true,
    requireReturned: {
      types: ['modify'],
      reason: 'the backend returned no modify for the --modify-input, so no edit it returns was validated',
    },
    steps: MODIFY_RUN,
  },
];
