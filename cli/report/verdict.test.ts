import { describe, expect, it } from 'vitest';
import { profileExtent, untestedWhy, verdictText } from './verdict.js';
import { sampleReport } from './test-support/sample-report.js';

describe('untestedWhy', () => {
  it('names what the target does not announce, most cases first, and counts the rest', () => {
    expect(
      untestedWhy([
        'the driver does not declare the http binding',
        'the driver does not declare the http binding',
        'the driver does not announce features.stdioPersistent, features.retries',
        'the driver does not announce features.events with turn.start',
        'this case needs the harness in-process',
      ]),
    ).toBe('the target does not announce http, stdioPersistent, retries, events; 1 for other reasons');
  });

  it('gives the commonest other reason when nothing is unannounced, saying when there are more', () => {
    expect(untestedWhy(['a', 'b', 'a'])).toBe('a; 1 for other reasons');
    expect(untestedWhy(['a', undefined])).toBe('a; 1 for other reasons');
    expect(untestedWhy(['only'])).toBe('only');
  });
});

describe('verdictText and profiles', () => {
  it('says a stopped run has no verdict, and how much it judged', () => {
    const stopped = sampleReport({ stopped: { message: 'the driver exited', stderrTail: [] } });
    expect(verdictText(stopped, false)).toMatch(
      /^none: the run stopped before every case was judged .*; 7 of 11 cases judged/,
    );
  });

  it('calls a profile fully, partly or not exercised', () => {
    const base = { profile: 'base', untested: [], excluded: [] };
    expect(profileExtent({ ...base, checked: ['A'] })).toBe('fully');
    expect(profileExtent({ ...base, checked: ['A'], untested: [{ id: 'B', reason: 'r' }] })).toBe('partly');
    expect(profileExtent({ ...base, checked: [], untested: [{ id: 'B', reason: 'r' }] })).toBe('not');
  });
});
