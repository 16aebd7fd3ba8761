import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONFLICT_RULES } from './conflicts.js';
import { checkEffects, type EffectContext } from './effects.js';
import type { JsonValue } from './json.js';
import { sampleMessage, sampleTextPart } from './test-samples.js';
import type { Capabilities } from './wire-types.js';

const ALL_AT_TOOL_BEFORE: Capabilities = {
  effects: ['deny', 'allow', 'ask', 'modify', 'message', 'return', 'flow', 'inject'],
  modify: { input: { replace: true, merge: true } },
  flow: { operations: ['stop'] },
  inject: { context: { append: true, deliverAt: ['now', 'next_turn'] } },
};

const at = (
  eventType: string,
  capabilities: Capabilities,
  extra: Partial<EffectContext> = {},
): EffectContext => ({
  eventType,
  capabilities,
  ...extra,
});
const TB = at('tool.before', ALL_AT_TOOL_BEFORE);

/** `problem@index path` for compact assertions. */
const judge = (effects: JsonValue, ctx: EffectContext = TB) =>
  checkEffects(effects, ctx).map((v) => `${v.problem}@${v.index} ${v.path}`);

const inject = (deliverAt = 'now') => ({
  type: 'inject',
  target: 'context',
  operation: 'append',
  deliverAt,
  value: [sampleMessage('system', 'note')],
});

describe('checkEffects: valid lists', () => {
  it('accepts [] and every effect type the boundary and advertisement allow', () => {
    expect(judge([])).toEqual([]);
    const all = [
      { type: 'deny', reason: 'no', code: 'com.example.rule', extensions: { 'com.example.x': 1 } },
      { type: 'allow' },
      { type: 'ask' },
      { type: 'modify', target: 'input', operation: 'merge', value: { command: 'ls -l' } },
      { type: 'message', text: 'note' },
      { type: 'return', value: { anything: [1, null] } },
      { type: 'flow', operation: 'stop', reason: 'enough' },
      inject('next_turn'),
    ];
    expect(judge(all)).toEqual([]);
  });

  it('accepts flow continue with and without an instruction when allowance remains', () => {
    const caps: Capabilities = {
      effects: ['flow'],
      flow: { operations: ['stop', 'continue'], remainingContinuations: 1, continuationCount: 0 },
    };
    const ctx = at('turn.finish.before', caps);
    expect(judge([{ type: 'flow', operation: 'continue' }], ctx)).toEqual([]);
    expect(judge([{ type: 'flow', operation: 'continue', instruction: 'run tests' }], ctx)).toEqual([]);
  });
});

describe('checkEffects: the four problems are told apart', () => {
  it('unknown: a type outside the vocabulary, reverse-DNS included', () => {
    expect(judge([{ type: 'teleport' }])).toEqual(['unknown@0 $[0].type']);
    expect(judge([{ type: 'com.example.effect' }])).toEqual(['unknown@0 $[0].type']);
  });

  it.each<[string, JsonValue, string[]]>([
    ['not an object', ['deny'], ['malformed@0 $[0]']],
    ['no type', [{ reason: 'x' }], ['malformed@0 $[0].type']],
    ['deny without reason', [{ type: 'deny' }], ['malformed@0 $[0].reason']],
    ['deny with empty reason', [{ type: 'deny', reason: '' }], ['malformed@0 $[0].reason']],
    ['deny code not reverse-DNS', [{ type: 'deny', reason: 'r', code: 'nope' }], ['malformed@0 $[0].code']],
    ['an unknown field', [{ type: 'deny', reason: 'r', why: 'x' }], ['malformed@0 $[0].why']],
    ['allow with a field', [{ type: 'allow', scope: 'all' }], ['malformed@0 $[0].scope']],
    ['message without text', [{ type: 'message' }], ['malformed@0 $[0].text']],
    ['return without value', [{ type: 'return' }], ['malformed@0 $[0].value']],
    ['flow without operation', [{ type: 'flow', reason: 'x' }], ['malformed@0 $[0].operation']],
    ['stop without reason', [{ type: 'flow', operation: 'stop' }], ['malformed@0 $[0].reason']],
    [
      'stop with an instruction',
      [{ type: 'flow', operation: 'stop', reason: 'r', instruction: 'i' }],
      ['malformed@0 $[0].instruction'],
    ],
    ['inject replace', [{ ...inject(), operation: 'replace' }], ['malformed@0 $[0].operation']],
    ['inject bad deliverAt', [{ ...inject(), deliverAt: 'later' }], ['malformed@0 $[0].deliverAt']],
    ['inject value not messages', [{ ...inject(), value: 'text' }], ['malformed@0 $[0].value']],
    [
      'modify unknown target',
      [{ type: 'modify', target: 'parts', operation: 'replace', value: [] }],
      ['malformed@0 $[0].target'],
    ],
    [
      'modify bad operation',
      [{ type: 'modify', target: 'input', operation: 'patch', value: {} }],
      ['malformed@0 $[0].operation'],
    ],
    [
      'modify input not object',
      [{ type: 'modify', target: 'input', operation: 'merge', value: [] }],
      ['malformed@0 $[0].value'],
    ],
    [
      'modify with a path field',
      [{ type: 'modify', target: 'input', operation: 'merge', value: {}, path: '/a' }],
      ['malformed@0 $[0].path'],
    ],
  ])('malformed: %s', (_name, effects, expected) => {
    expect(judge(effects)).toEqual(expected);
  });

  it('malformed: value shapes follow the target', () => {
    const modify = (target: string, value: JsonValue) => [
      { type: 'modify', target, operation: 'replace', value },
    ];
    const caps = (target: string): Capabilities => ({
      effects: ['modify'],
      modify: { [target]: { replace: true, merge: true } },
    });
    expect(judge(modify('prompt', { text: 'hi' }), at('turn.start', caps('prompt')))).toEqual([
      'malformed@0 $[0].value',
    ]);
    expect(judge(modify('prompt', [sampleMessage()]), at('turn.start', caps('prompt')))).toEqual([]);
    // A message given where parts are expected: its role and parts are unknown part fields.
    expect(
      judge(modify('instructions', [sampleMessage()]), at('context.compact.before', caps('instructions'))),
    ).toEqual(expect.arrayContaining(['malformed@0 $[0].value[0].role', 'malformed@0 $[0].value[0].parts']));
    expect(
      judge(modify('instructions', [sampleTextPart()]), at('context.compact.before', caps('instructions'))),
    ).toEqual([]);
    expect(judge(modify('output', 'result'), at('tool.after', caps('output')))).toEqual([
      'malformed@0 $[0].value',
    ]);
    expect(
      judge(modify('output', [sampleTextPart()]), at('tool.after', caps('output'))).length,
    ).toBeGreaterThan(0);
  });

  it('malformed: modify(content) is an answer object at an elicitation result and messages at outbound', () => {
    const content = (value: JsonValue) => [{ type: 'modify', target: 'content', operation: 'merge', value }];
    const caps: Capabilities = { effects: ['modify'], modify: { content: { replace: false, merge: true } } };
    const form = { type: 'user.elicitation.result', elicitation: { mode: 'form', action: 'accept' } };
    const elic = at('user.elicitation.result', caps, { event: form });
    expect(judge(content({ name: 'new', tags: ['a'] }), elic)).toEqual([]);
    expect(judge(content([sampleMessage('assistant')]), elic)).toEqual(['malformed@0 $[0].value']);
    expect(judge(content({ nested: { x: 1 } }), elic)).toEqual(['malformed@0 $[0].value.nested']);
    const declined = at('user.elicitation.result', caps, {
      event: { elicitation: { mode: 'form', action: 'decline' } },
    });
    expect(judge(content({}), declined)).toEqual(['malformed@0 $[0].value']);
    const url = at('user.elicitation.result', caps, {
      event: { elicitation: { mode: 'url', action: 'accept' } },
    });
    expect(judge(content({}), url)).toEqual(['malformed@0 $[0].value']);
    const outbound = at('user.message.outbound', caps);
    expect(judge(content([sampleMessage('assistant')]), outbound)).toEqual([]);
    expect(judge(content({ name: 'x' }), outbound)).toEqual(['malformed@0 $[0].value']);
  });

  it('not-allowed-at-event: the boundary can never take it, whatever was advertised', () => {
    expect(judge([{ type: 'return', value: 1 }], at('task.change.before', { effects: ['return'] }))).toEqual([
      'not-allowed-at-event@0 $[0]',
    ]);
    const contAtBefore = {
      ...ALL_AT_TOOL_BEFORE,
      flow: { operations: ['stop', 'continue'] as Array<'stop' | 'continue'> },
    };
    expect(judge([{ type: 'flow', operation: 'continue' }], at('tool.before', contAtBefore))).toEqual([
      'not-allowed-at-event@0 $[0]',
    ]);
    expect(judge([{ type: 'modify', target: 'output', operation: 'replace', value: [] }])).toEqual([
      'not-allowed-at-event@0 $[0]',
    ]);
    expect(judge([{ type: 'deny', reason: 'r' }], at('turn.end', { effects: ['deny'] }))).toEqual([
      'not-allowed-at-event@0 $[0]',
    ]);
  });

  it('unadvertised: allowed at the boundary but not in this request', () => {
    const denyOnly = at('tool.before', { effects: ['deny'] });
    expect(judge([{ type: 'ask' }], denyOnly)).toEqual(['unadvertised@0 $[0]']);
    const mergeOnly = at('tool.before', {
      effects: ['deny', 'modify'],
      modify: { input: { replace: false, merge: true } },
    });
    expect(judge([{ type: 'modify', target: 'input', operation: 'replace', value: {} }], mergeOnly)).toEqual([
      'unadvertised@0 $[0]',
    ]);
    const nextTurnOnly = at('tool.before', {
      effects: ['deny', 'inject'],
      inject: { context: { append: true, deliverAt: ['next_turn'] } },
    });
    expect(judge([inject('now')], nextTurnOnly)).toEqual(['unadvertised@0 $[0]']);
    const noFlowBlock = at('tool.before', { effects: ['deny', 'flow'] });
    expect(judge([{ type: 'flow', operation: 'stop', reason: 'r' }], noFlowBlock)).toEqual([
      'unadvertised@0 $[0]',
    ]);
  });
});

describe('checkEffects: atomicity and conflicts', () => {
  it('reports a bad member even beside a valid deny, and reports every bad member', () => {
    const list = [{ type: 'deny', reason: 'r' }, { type: 'unknown' }, { type: 'message' }];
    expect(judge(list)).toEqual(['unknown@1 $[1].type', 'malformed@2 $[2].text']);
  });

  it('a non-array list is one malformed problem at index -1', () => {
    expect(judge({ type: 'deny' })).toEqual(['malformed@-1 $']);
    expect(judge(null, { ...TB, path: '$.result.effects' })).toEqual(['malformed@-1 $.result.effects']);
  });

  it('conflicting: return with deny at user.elicitation.request', () => {
    const ctx = at('user.elicitation.request', { effects: ['deny', 'return'] });
    expect(
      judge(
        [
          { type: 'deny', reason: 'r' },
          { type: 'return', value: { action: 'decline' } },
        ],
        ctx,
      ),
    ).toEqual(['conflicting@1 $[1]']);
    expect(judge([{ type: 'return', value: {} }], ctx)).toEqual([]);
    // At tool.before deny simply wins over a supplied result: no conflict.
    expect(
      judge([
        { type: 'deny', reason: 'r' },
        { type: 'return', value: 1 },
      ]),
    ).toEqual([]);
  });

  it('conflicting: flow continue with no allowance left', () => {
    const caps = (remaining: number): Capabilities => ({
      effects: ['flow'],
      flow: { operations: ['continue'], remainingContinuations: remaining, continuationCount: 2 },
    });
    expect(judge([{ type: 'flow', operation: 'continue' }], at('tool.after', caps(0)))).toEqual([
      'conflicting@0 $[0]',
    ]);
    expect(judge([{ type: 'flow', operation: 'continue' }], at('tool.after', caps(1)))).toEqual([]);
  });

  it('conflicting: revision "0.1" takes at most one effect', () => {
    const ctx = at('tool.before', { effects: ['deny'] }, { protocolVersion: '0.1' });
    const two = [
      { type: 'deny', reason: 'a' },
      { type: 'deny', reason: 'b' },
    ];
    expect(judge(two, ctx)).toEqual(['conflicting@1 $[1]']);
    expect(judge(two)).toEqual([]);
  });

  it('documents a reason for every conflict rule', () => {
    expect(CONFLICT_RULES.map((r) => r.id)).toEqual([
      'return-with-deny-at-elicitation-request',
      'continue-without-allowance',
      'legacy-single-effect',
    ]);
    for (const rule of CONFLICT_RULES) expect(rule.reason.length).toBeGreaterThan(40);
  });

  it('never throws and reports indexes inside the list, for arbitrary JSON members', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 6 }), (effects) => {
        const out = checkEffects(effects as JsonValue, TB);
        for (const v of out) {
          expect(v.index).toBeGreaterThanOrEqual(0);
          expect(v.index).toBeLessThan(effects.length);
          expect(v.requirement).toMatch(/^AHP-/);
        }
      }),
      { numRuns: 300 },
    );
  });
});
