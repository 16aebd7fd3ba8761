import { describe, expect, it } from 'vitest';
import { requirementById } from '../../../protocol/requirements.js';
import { FINDING_RANK } from '../../common/finding.js';
import { finding, HARNESS_RULES, isCrossCutting, prefixed, type RuleKey } from './rules.js';

const entries = Object.entries(HARNESS_RULES) as [RuleKey, (typeof HARNESS_RULES)[RuleKey]][];

describe('the harness rule catalogue', () => {
  it('gives every rule a known requirement and a sentence of the published draft', () => {
    for (const [key, rule] of entries) {
      expect(requirementById(rule.requirement), key).toBeDefined();
      expect(rule.basis.document, key).toMatch(/^spec\/draft\/.+\.md$/);
      expect(rule.basis.anchor, key).not.toBe('');
      expect(rule.basis.rule.length, key).toBeGreaterThan(20);
      expect(Object.values(FINDING_RANK), key).toContain(rule.rank);
      // An anchor that is an ID is the ID of the rule's own requirement (or of the sentence's block).
      if (/^AHPX?-/.test(rule.basis.anchor)) expect(requirementById(rule.basis.anchor), key).toBeDefined();
    }
  });

  it('keeps summaries true of every occurrence: no numbers, ids or quoted values', () => {
    for (const [key, rule] of entries) {
      for (const summary of [rule.summary, ...Object.values(rule.ways ?? {})]) {
        expect(summary, key).not.toMatch(/\d{2,}|"|evt-|call-/);
      }
    }
  });

  it('marks exactly the wire hygiene rules that hold in every call as cross-cutting', () => {
    expect(entries.filter(([key]) => isCrossCutting(key)).map(([key]) => key)).toEqual([
      'intercept.id-is-event-id',
      'retry.identical-bytes',
      'event.reported-id',
      'audit.attempts',
      'audit.answer-without-reply',
      'auth.bearer-header',
    ]);
    expect(HARNESS_RULES['intercept.id-is-event-id'].requirement).toBe('AHP-CORE-004');
  });
});

describe('finding', () => {
  it('builds a finding from its rule, with the way and this occurrence only in the key and message', () => {
    const f = finding('failure-policy', 'the decision is "continue"', { way: 'fail-closed' });
    expect(f).toMatchObject({
      rule: 'failure-policy',
      way: 'fail-closed',
      requirement: 'AHP-FAIL-001',
      level: 'MUST',
      rank: FINDING_RANK.decision,
      message: 'the decision is "continue"',
    });
    expect(f.summary).toBe(HARNESS_RULES['failure-policy'].ways?.['fail-closed']);
    expect(finding('valid-result', 'x', { rank: FINDING_RANK.report }).rank).toBe(FINDING_RANK.report);
    expect(prefixed([f], 'call 2: ')[0]?.message).toBe('call 2: the decision is "continue"');
  });
});
