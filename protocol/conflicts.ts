import type { EffectViolation } from './effect-shapes.js';
import type { Capabilities, Effect } from './wire-types.js';

/** The boundary a list of well-formed effects is judged at. */
export interface ConflictContext {
  eventType: string;
  capabilities: Capabilities;
  protocolVersion?: string;
}

/** One residual combination that cannot be applied, with the reason it stays a conflict. */
export interface ConflictRule {
  id: string;
  /** Why composition rules cannot reconcile it (a residual conflict: the composition rules give no single outcome). */
  reason: string;
  /** Indexes of the members that make the list conflicting; empty when the rule does not fire. */
  find(effects: readonly Effect[], ctx: ConflictContext): number[];
}

/**
 * The conflicting-effects list. The draft's composition rules reconcile most combinations
 * (deny beats ask and allow, stop beats continue, a later return replaces an earlier one), so
 * only combinations that cannot all be applied at that boundary are listed here.
 */
export const CONFLICT_RULES: readonly ConflictRule[] = [
  {
    id: 'return-with-deny-at-elicitation-request',
    reason:
      "At user.elicitation.request a return answers the MCP server on the user's behalf while a deny refuses the " +
      'elicitation; the server would receive two different outcomes, and no precedence rule picks one.',
    find(effects, ctx) {
      if (ctx.eventType !== 'user.elicitation.request') return [];
      if (!effects.some((e) => e.type === 'deny')) return [];
      return indexesOf(effects, (e) => e.type === 'return');
    },
  },
  {
    id: 'continue-without-allowance',
    reason:
      'A flow continue asks for one more step, but the request advertised no remaining continuation allowance; ' +
      'the harness may not exceed it nor silently swap in a different operation.',
    find(effects, ctx) {
      const remaining = ctx.capabilities.flow?.remainingContinuations;
      if (typeof remaining === 'number' && remaining > 0) return [];
      return indexesOf(effects, (e) => e.type === 'flow' && e.operation === 'continue');
    },
  },
  {
    id: 'legacy-single-effect',
    reason: 'Revision "0.1" accepts only [] or exactly one deny, so any second member cannot be applied.',
    find(effects, ctx) {
      if (ctx.protocolVersion !== '0.1' || effects.length <= 1) return [];
      return effects.map((_, i) => i).slice(1);
    },
  },
];

function indexesOf(effects: readonly Effect[], pred: (e: Effect) => boolean): number[] {
  return effects.flatMap((e, i) => (pred(e) ? [i] : []));
}

/** Applies every conflict rule to well-formed, advertised members; one violation per offending member. */
export function findConflicts(
  effects: readonly Effect[],
  ctx: ConflictContext,
  path = '$',
): EffectViolation[] {
  return CONFLICT_RULES.flatMap((rule) =>
    rule.find(effects, ctx).map((index) => ({
      path: `${path}[${index}]`,
      message: `conflicting effects (${rule.id}): ${rule.reason}`,
      requirement: rule.id === 'continue-without-allowance' ? 'AHP-EDIT-001' : 'AHP-DEC-001',
      problem: 'conflicting' as const,
      index,
    })),
  );
}
