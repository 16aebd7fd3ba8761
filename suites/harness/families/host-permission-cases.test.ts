import { describe, expect, it } from 'vitest';
import type { CaseRunContext, StepRun } from '../kit/case-model.js';
import { executionCheck } from './host-permission-cases.js';

class Untested extends Error {}

/** The context of a step, with the control call's reported execution as run 0. */
function contextAfter(controlExecuted: boolean): CaseRunContext {
  return {
    runs: [{ index: 0, result: { executed: controlExecuted } }],
    untested(reason: string): never {
      throw new Untested(reason);
    },
  } as unknown as CaseRunContext;
}
const context = contextAfter(true);

function step(index: number, result: Partial<StepRun['result']>): StepRun {
  const base = { decision: 'continue', synthetic: false, interrupted: false, audit: [] };
  return { index, result: { ...base, ...result } } as unknown as StepRun;
}

const check = executionCheck([
  { executed: false, permission: 'deny', why: 'the host said deny', rule: 'host.never-weakened' },
]);
const messages = async (found: ReturnType<typeof check.run>) => (await found).map((f) => f.message);

describe('executionCheck', () => {
  it('makes a case whose later calls all matched untested when the control call is not executed', async () => {
    // The control itself is judged after the last call, so step 0 alone finds nothing.
    expect(await check.run(step(0, { executed: false }), contextAfter(false))).toEqual([]);
    const matched = step(1, { executed: false, permission: 'deny' });
    await expect(async () => check.run(matched, contextAfter(false))).rejects.toThrow(
      /executed: false for a call nothing objected to/,
    );
    expect(await check.run(matched, contextAfter(true))).toEqual([]);
  });

  it('fails a later call that breaks its outcome even when the control was not executed', async () => {
    const lifted = check.run(step(1, { executed: true, permission: 'allow' }), contextAfter(false));
    expect(await messages(lifted)).toHaveLength(2);
  });

  it('names a missing executed, a wrong executed and a lifted permission', async () => {
    expect(await messages(check.run(step(1, {}), context))).toEqual([
      'the driver announces features.execution, but its invoke result has no executed',
    ]);
    const lifted = check.run(step(1, { executed: true, permission: 'allow' }), context);
    expect(await messages(lifted)).toEqual([
      'the host said deny, yet the result says executed: true',
      'the host said deny: the final permission must be "deny", the result says "allow"',
    ]);
    expect((await lifted).map((f) => f.requirement)).toEqual(['AHP-SEC-001', 'AHP-SEC-001']);
    expect(await check.run(step(1, { executed: false, permission: 'deny' }), context)).toEqual([]);
  });
});
