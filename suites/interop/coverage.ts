/**
 * Which cases of ours cover each interop scenario, matched by requirement and behaviour: one
 * table keyed by what a scenario is about (its tag, its catalogue category or registration, its
 * kind of lifecycle steps), read for every scenario of the four files. A scenario none of whose
 * keys names a case gets a written reason instead. `list --interop` shows it; the test beside
 * the list command checks that every pattern here matches a case that ships. Pure.
 */
import type { CatalogueScenario, InterceptScenario, LifecycleScenario } from './format.js';
import type { InteropSet } from './load.js';

/** Case-name patterns (`*` matches any run of characters) per key of a scenario. */
export const INTEROP_COVERAGE: Readonly<Record<string, readonly string[]>> = {
  // scenarios.json, by tag.
  'tag:atomic-rejection': ['AHP-EDIT-001/atomic/*'],
  'tag:atomic': ['AHP-EDIT-001/atomic/*'],
  'tag:application-invalid': ['AHP-EDIT-001/atomic/*/an-earlier-accepted-edit-stays-after-a-later-rejection'],
  'tag:modify': ['AHP-EDIT-001/replace/*', 'AHP-EDIT-001/merge/*'],
  'tag:merge': ['AHP-EDIT-001/merge/*'],
  'tag:replace': ['AHP-EDIT-001/replace/*'],
  'tag:capability-invalid': [
    'AHP-EDIT-001/authority/*',
    'AHP-FAIL-001/transport:*/policy:fail-closed/class:invalid-effects/unadvertised-return',
  ],
  'tag:schema-invalid': [
    'AHP-FAIL-001/transport:*/policy:fail-closed/class:invalid-effects',
    'AHP-FAIL-001/transport:*/policy:fail-closed/class:missing-fields',
    'AHP-FAIL-001/transport:*/policy:fail-closed/class:malformed',
  ],
  'tag:correlation-invalid': ['AHP-FAIL-001/transport:*/policy:fail-closed/class:id-mismatch'],
  'tag:serial-pipeline': ['AHP-COMP-001/chain:*'],
  'tag:precedence': [
    'AHP-COMP-001/chain:deny-at-the-2nd/3rd-not-asked',
    'AHP-COMP-001/effects/permission/deny-beats-earlier-allow-and-ask',
  ],
  'tag:flow': [
    'AHP-COMP-001/chain:flow-stop-at-the-2nd/3rd-not-asked',
    'AHP-COMP-001/effects/flow-stop/*',
    'AHP-COMP-001/effects/continue/stop-beats-continue',
  ],
  'tag:extensions': ['AHP-CORE-003/transport:*/unknown-result-fields-are-ignored'],
  // The effects family: what one response, or a chain of them, leaves in force.
  'tag:return': ['AHP-COMP-001/effects/return/*'],
  'tag:candidate': ['AHP-COMP-001/effects/return/*'],
  'tag:permission-invalidation': ['AHP-COMP-001/effects/return/invalidated-by-a-later-changed-input'],
  'tag:message': ['AHP-COMP-001/effects/message/*', 'AHP-EDIT-001/effects/atomic/messages-*'],
  'tag:inject': ['AHP-COMP-001/effects/inject/*', 'AHP-DEC-001/effects/inject/*'],
  'tag:finish-boundary': ['AHP-COMP-001/effects/continue/*'],
  'tag:state': ['AHP-COMP-001/effects/state/*'],
  'tag:omitted-state': ['AHP-COMP-001/effects/state/*'],
  'tag:no-effect': ['AHP-DEC-003/*'],
  'tag:deny': ['AHP-DEC-002/*'],
  'tag:permission': ['AHP-SEC-001/*', 'AHP-DEC-003/*'],
  'tag:allow': ['AHP-SEC-001/allow-effect-does-not-lift-host-deny'],
  'tag:ask': [
    'AHP-CAP-001/advertised-ask-is-enforced-under-a-host-that-allows',
    'AHP-COMP-001/effects/permission/ask-persists-after-a-later-allow',
  ],
  // catalogue-scenarios.json registrations, by scenario.
  'registration:registration-intercept-accepted': [
    'AHP-REG-002/mode:intercept-and-observe-backends/each-gets-only-its-mode',
  ],
  'registration:registration-observe-accepted': [
    'AHPX-FAIL-006/transport:*/observer-failure-keeps-the-decision',
  ],
  'registration:registration-explicit-failure-policy-required': [
    'AHPX-FAIL-003/transport:*/registration:intercept-without-failure-policy-is-refused',
  ],
  'registration:registration-observe-policy-forbidden': [
    'AHPX-FAIL-006/transport:*/registration:observe-with-timeout-is-refused',
  ],
  'registration:registration-duplicate-backend': ['AHP-REG-001/registration:duplicate-backend-id-is-refused'],
  'registration:registration-observe-only-interception': [
    'AHP-REG-001/registration:intercept-of-observation-only-event-*-is-refused',
  ],
  'registration:registration-unenforceable-managed-scope': [
    'AHP-REG-001/registration:managed-scope-is-refused-or-served',
  ],
  'registration:registration-unsupported-event': [
    'AHP-REG-002/registration:observe-of-*-is-refused-or-changes-no-dispatch',
  ],
  'registration:registration-resolved-credential': ['AHP-AUTH-001/*'],
  'registration:registration-missing-credential': [
    'AHP-FAIL-001/transport:http/*/class:auth/token-variable-missing',
  ],
  // lifecycle-scenarios.json and observation-chain-scenarios.json, by what they are about.
  'lifecycle:cancel': ['AHPX-INT-001/*', 'AHPX-INT-002/*'],
  // Lifecycle exchanges, by scenario, where a case of ours judges the same behaviour.
  'lifecycle:stdio-unknown-before-live': ['AHP-STDIO-001/*/correlate-by-id/unknown-id-before-live-reply'],
  'lifecycle:stdio-unsolicited-old-before-live': [
    'AHP-STDIO-001/*/correlate-by-id/old-reply-again-before-next-live-reply',
  ],
  'lifecycle:duplicate-reply-ignored': [
    'AHP-STDIO-001/*/correlate-by-id/old-reply-again-before-next-live-reply',
  ],
  'lifecycle:upload-integrity-rejection': [
    'AHP-CONTENT-002/upload:bad-request/*',
    'AHP-CONTENT-002/upload:unauthorized/*',
  ],
  'lifecycle:intercept-content-upload-before-send': ['AHP-CONTENT-002/upload:confirmed/*'],
  'lifecycle:denied-boundary-observed': [
    'AHP-REG-002/mode:intercept/uncalled-interceptor-gets-the-boundary-copy',
  ],
  'lifecycle:stopped-boundary-observed': ['AHP-COMP-001/effects/flow-stop/*'],
  // Observation chains, by scenario: who is asked, and the boundary copy the uncalled get.
  'chain:observation-chain-deny': [
    'AHP-COMP-001/chain:deny-at-the-2nd/3rd-not-asked',
    'AHP-REG-002/mode:intercept/uncalled-interceptor-gets-the-boundary-copy',
  ],
  'chain:observation-chain-stop': [
    'AHP-COMP-001/chain:flow-stop-at-the-2nd/3rd-not-asked',
    'AHP-REG-002/mode:intercept/uncalled-interceptor-gets-the-boundary-copy',
  ],
  'chain:observation-chain-fail-open': ['AHP-COMP-001/chain:fail-open-failure-at-the-2nd/3rd-asked'],
  'chain:observation-chain-fail-closed': ['AHP-COMP-001/chain:fail-closed-failure-at-the-2nd/3rd-not-asked'],
  'chain:observation-chain-interrupt': [
    'AHP-COMP-001/chain:interrupted-while-the-2nd-is-pending/3rd-not-asked',
  ],
  'chain:observation-chain-continue': [
    'AHP-COMP-001/chain:three-interceptors/asked-serially-in-registration-order',
  ],
  'chain:observation-chain-native': [
    'AHP-REG-002/mode:intercept-and-observe-on-one-backend/each-gets-its-own-delivery',
  ],
};

/** Why a scenario no key of which names a case is not covered, by what it is about. */
const UNCOVERED: Readonly<Record<string, string>> = {
  intercept:
    'no case of ours judges this outcome of one response (candidates, returns, messages, injections, continuations or an incoming state); `harness --interop` runs it',
  registration: 'no case of ours registers this document; `harness --interop` runs it through configure',
  notification:
    'no case of ours compares a hooks/observe with the event a call raised; `harness --interop` runs the sender half where the driver can raise the event',
  chain:
    "no chain case of ours reproduces this combination of the interceptors' answers; `harness --interop` runs it",
  lifecycle:
    'no case of ours holds a harness at these points of an exchange; `harness --interop` runs it where one driver call can show it',
};

/** What a scenario of `set` is about, as keys of INTEROP_COVERAGE. */
export function scenarioKeys(set: InteropSet['set'], scenario: InteropSet['scenarios'][number]): string[] {
  if (set === 'scenarios') return (scenario as InterceptScenario).tags.map((t) => `tag:${t}`);
  if (set === 'catalogue-scenarios') {
    const s = scenario as CatalogueScenario;
    if (s.category === 'registration') return [`registration:${s.id}`];
    // A catalogue row named for an event type is about the frame that carries that event.
    const event = /^catalogue:(.+)$/.exec(s.id)?.[1];
    return event === undefined ? [`catalogue:${s.category}`] : [`catalogue:${s.category}`, `event:${event}`];
  }
  const s = scenario as LifecycleScenario;
  if (s.chain !== undefined) return [`chain:${s.id}`];
  const kind = s.steps.some((step) => step.op === 'cancel') ? 'lifecycle:cancel' : 'lifecycle:other';
  return [kind, `lifecycle:${s.id}`];
}

function uncoveredReason(set: InteropSet['set'], scenario: InteropSet['scenarios'][number]): string {
  if (set === 'scenarios') return UNCOVERED.intercept as string;
  if (set === 'catalogue-scenarios') {
    return (scenario as CatalogueScenario).category === 'registration'
      ? (UNCOVERED.registration as string)
      : (UNCOVERED.notification as string);
  }
  return (
    (scenario as LifecycleScenario).chain === undefined ? UNCOVERED.lifecycle : UNCOVERED.chain
  ) as string;
}

/** True when `name` matches `pattern` (`*`: any run of characters). */
export function matchesPattern(pattern: string, name: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`).test(name);
}

/** The case patterns of one key: the table's, or for an event type every case sending that event. */
function patternsFor(key: string): readonly string[] {
  const event = /^event:(.+)$/.exec(key)?.[1];
  if (event !== undefined) return [`AHP-RPC-001/event:${event}/*`];
  return INTEROP_COVERAGE[key] ?? [];
}

/** One scenario and what covers it. */
export interface ScenarioCoverage {
  set: InteropSet['set'];
  id: string;
  /** Our case names that cover it (from the cases given). */
  cases: string[];
  /** Why none does, when none does. */
  reason?: string;
}

/** Coverage of every scenario of `sets` by the case names given. */
export function interopCoverage(
  sets: readonly InteropSet[],
  caseNames: readonly string[],
): ScenarioCoverage[] {
  const out: ScenarioCoverage[] = [];
  for (const loaded of sets) {
    for (const scenario of loaded.scenarios) {
      const patterns = scenarioKeys(loaded.set, scenario).flatMap(patternsFor);
      const cases = caseNames.filter((n) => patterns.some((p) => matchesPattern(p, n)));
      const entry: ScenarioCoverage = { set: loaded.set, id: scenario.id, cases };
      if (cases.length === 0) entry.reason = uncoveredReason(loaded.set, scenario);
      out.push(entry);
    }
  }
  return out;
}
