/**
 * AHP-EDIT-001 at tool.before, as data: what each backend of a chain answers and what every
 * interceptor after it, the observer and the driver must then show. The expected inputs are
 * written out, never computed with a merge of our own, so a case cannot share a mistake with the
 * harness it judges. Every response presented as valid passes protocol/messages.ts
 * checkInterceptResult against an advertisement of deny and modify(input) with both operations;
 * every one presented as bad fails it (edit-case-data.test.ts).
 */
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import type { JsonObject, JsonValue } from '../../../protocol/json.js';
import type { ModifyNeed } from '../kit/advertised-authority.js';

/** One interceptor of a chain: what its backend answers, and its subscription's policy. */
export interface ChainLink {
  effects: JsonValue[];
  policy: FailurePolicy;
}

/**
 * The tool input every chain starts from: a top-level string, a list and a nested object, so a
 * merge can show what it keeps, what it replaces whole and what it adds.
 */
export const ORIGINAL_INPUT: JsonObject = {
  command: 'ls -la /tmp',
  args: ['-l'],
  options: { cwd: '/tmp', env: { LANG: 'C' } },
  description: 'list files',
};

/** What a chain call must come to. */
export interface EditExpectation {
  decision: 'continue' | 'deny';
  synthetic: boolean;
  /** The exact tool.input of each interceptor's request, in chain order; its length is how many are called. */
  inputs: readonly JsonObject[];
  /** The exact tool.input an observer is sent. */
  observed?: JsonObject;
  /** The first interceptor's audit entry, when the driver reports one. */
  first: { outcome: 'effects' } | { outcome: 'operational-failure'; failureClass: 'invalid-effects' };
  because: string;
}

/** One chain case. */
export interface EditCase {
  /** The name after `AHP-EDIT-001/`. */
  label: string;
  links: readonly ChainLink[];
  observe?: boolean;
  /**
   * By link: the edits its request must advertise for the case to say anything (an empty list:
   * modify itself); undefined: nothing needed of that request.
   */
  needs: readonly (readonly ModifyNeed[] | undefined)[];
  /** A modify target the first request must not advertise: a bad member stands outside the authority there. */
  outside?: string;
  expect: EditExpectation;
}

const modify = (operation: 'replace' | 'merge', value: JsonValue, target = 'input'): JsonObject => ({
  type: 'modify',
  target,
  operation,
  value,
});

const REPLACE_INPUT: ModifyNeed = { target: 'input', operation: 'replace' };
const MERGE_INPUT: ModifyNeed = { target: 'input', operation: 'merge' };

/** What the first interceptor replaces the input with: every original key dropped but one changed. */
export const FIRST_REPLACEMENT: JsonObject = { command: 'ls /srv', note: 'first replacement' };
/** What the second interceptor replaces it with in turn. */
export const SECOND_REPLACEMENT: JsonObject = { command: 'ls /srv/data' };

/** A merge that leaves `command`, replaces a list and a nested object, and sets a key to null. */
const FIRST_MERGE: JsonObject = { args: ['-a'], options: { cwd: '/srv' }, description: null };
/** ORIGINAL_INPUT after FIRST_MERGE: shallow, the nested object replaced whole, null a value. */
export const AFTER_FIRST_MERGE: JsonObject = {
  command: 'ls -la /tmp',
  args: ['-a'],
  options: { cwd: '/srv' },
  description: null,
};
/** AFTER_FIRST_MERGE after the second interceptor's merge of a new key. */
export const AFTER_SECOND_MERGE: JsonObject = { ...AFTER_FIRST_MERGE, dryRun: true };

/** A target no harness can advertise at tool.before (its bounds allow modify of input only). */
export const OUTSIDE_TARGET = 'workspace';
const OUTSIDE_EDIT = modify('merge', { root: '/srv' }, OUTSIDE_TARGET);

/** The bad members of an otherwise valid response, each enough to reject it whole. */
export const BAD_MEMBERS: readonly { label: string; effect: JsonObject; outside?: string }[] = [
  { label: 'unadvertised-target', effect: OUTSIDE_EDIT, outside: OUTSIDE_TARGET },
  { label: 'unknown-field', effect: { ...modify('merge', { dryRun: true }), priority: 1 } },
  { label: 'invalid-value', effect: modify('merge', '--dry-run') },
];

const POLICIES: readonly FailurePolicy[] = ['fail-open', 'fail-closed'];
const empty = (policy: FailurePolicy = 'fail-closed'): ChainLink => ({ effects: [], policy });
const editing = (...effects: JsonObject[]): ChainLink => ({ effects, policy: 'fail-closed' });

const chained: EditCase[] = [
  {
    label: 'replace/the-next-interceptor-sees-exactly-the-replacement',
    links: [
      editing(modify('replace', FIRST_REPLACEMENT)),
      editing(modify('replace', SECOND_REPLACEMENT)),
      empty(),
    ],
    needs: [[REPLACE_INPUT], [REPLACE_INPUT]],
    expect: {
      decision: 'continue',
      synthetic: false,
      inputs: [ORIGINAL_INPUT, FIRST_REPLACEMENT, SECOND_REPLACEMENT],
      first: { outcome: 'effects' },
      because:
        'a replace drops every key it omits, and each interceptor sees the accepted input of the one before',
    },
  },
  {
    label: 'merge/shallow-top-level-keys-merged-nested-replaced-whole-null-kept',
    links: [editing(modify('merge', FIRST_MERGE)), editing(modify('merge', { dryRun: true })), empty()],
    needs: [[MERGE_INPUT], [MERGE_INPUT]],
    expect: {
      decision: 'continue',
      synthetic: false,
      inputs: [ORIGINAL_INPUT, AFTER_FIRST_MERGE, AFTER_SECOND_MERGE],
      first: { outcome: 'effects' },
      because:
        'an object merge is shallow: keys it omits stay, a nested object or list it names is replaced whole, and null is a value, not a deletion',
    },
  },
  {
    label: 'observe/observers-see-the-edited-event-and-the-first-interceptor-the-original',
    links: [editing(modify('replace', FIRST_REPLACEMENT)), empty()],
    observe: true,
    needs: [[REPLACE_INPUT]],
    expect: {
      decision: 'continue',
      synthetic: false,
      inputs: [ORIGINAL_INPUT, FIRST_REPLACEMENT],
      observed: FIRST_REPLACEMENT,
      first: { outcome: 'effects' },
      because: 'observers get the settled effective event; the first interceptor was asked before any edit',
    },
  },
];

const REJECTED = { outcome: 'operational-failure', failureClass: 'invalid-effects' } as const;

/** What a rejected first response comes to under its policy: once, with nothing of it applied. */
function rejected(policy: FailurePolicy, why: string): EditExpectation {
  return policy === 'fail-open'
    ? {
        decision: 'continue',
        synthetic: false,
        inputs: [ORIGINAL_INPUT, ORIGINAL_INPUT],
        first: REJECTED,
        because: `${why}; under fail-open the chain goes on with the input unchanged`,
      }
    : {
        decision: 'deny',
        synthetic: true,
        inputs: [ORIGINAL_INPUT],
        first: REJECTED,
        because: `${why}; under fail-closed the call is denied and no later interceptor is asked`,
      };
}

const atomic: EditCase[] = POLICIES.flatMap((policy) =>
  BAD_MEMBERS.map((bad) => ({
    label: `atomic/policy:${policy}/bad-member:${bad.label}/the-valid-edit-is-not-applied`,
    links: [{ effects: [modify('replace', FIRST_REPLACEMENT), bad.effect], policy }, empty()],
    needs: [[REPLACE_INPUT]],
    ...(bad.outside === undefined ? {} : { outside: bad.outside }),
    expect: rejected(
      policy,
      `one bad member (${bad.label}) rejects the whole response, its valid replace included`,
    ),
  })),
);

/** An edit accepted before a fail-open rejection stays in force for the rest of the chain. */
const keptAfterRejection: EditCase = {
  label: 'atomic/policy:fail-open/an-earlier-accepted-edit-stays-after-a-later-rejection',
  links: [
    editing(modify('replace', FIRST_REPLACEMENT)),
    { effects: [modify('replace', SECOND_REPLACEMENT), modify('merge', '--dry-run')], policy: 'fail-open' },
    empty(),
  ],
  needs: [[REPLACE_INPUT], [REPLACE_INPUT]],
  expect: {
    decision: 'continue',
    synthetic: false,
    inputs: [ORIGINAL_INPUT, FIRST_REPLACEMENT, FIRST_REPLACEMENT],
    first: { outcome: 'effects' },
    because:
      'the second response is rejected whole (an invalid merge value), and under fail-open the input the first interceptor edited goes on unchanged',
  },
};

const authority: EditCase[] = POLICIES.map((policy) => ({
  label: `authority/policy:${policy}/target-not-advertised-is-invalid-effects`,
  links: [{ effects: [OUTSIDE_EDIT], policy }, empty()],
  needs: [[]],
  outside: OUTSIDE_TARGET,
  expect: rejected(
    policy,
    `a modify of ${OUTSIDE_TARGET}, which the request did not advertise, is an operational failure`,
  ),
}));

/** Every chain case. */
export const EDIT_CASES: readonly EditCase[] = [...chained, ...atomic, keptAfterRejection, ...authority];

/** The edit the operation case sends: `operation` on `target`, which the request advertised without it. */
export function withheldEdit(need: ModifyNeed): JsonObject {
  return modify(need.operation, { command: 'ls /srv' }, need.target);
}

/** The operation case's name after `AHP-EDIT-001/`. */
export const OPERATION_CASE_LABEL =
  'authority/policy:fail-closed/operation-not-advertised-is-invalid-effects';
