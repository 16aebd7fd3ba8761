import { describe, expect, it } from 'vitest';
import { UsageError } from '../io.js';
import { namePatternFor, selectCases } from './select.js';
import { globToRegex, parseSelector } from './selector.js';

const cases = [
  {
    name: 'AHP-FAIL-001/transport:http/policy:fail-closed/hang',
    requirements: ['AHP-FAIL-001'],
    profiles: ['tool-interception'],
  },
  {
    name: 'AHP-FAIL-001/transport:stdio-persistent/policy:fail-open/hang',
    requirements: ['AHP-FAIL-001'],
    profiles: ['tool-interception'],
  },
  { name: 'AHP-STDIO-001/framing/crlf', requirements: ['AHP-STDIO-001'], profiles: ['stdio'] },
  {
    name: 'AHPX-SHUT-001/close/reaps',
    requirements: ['AHPX-SHUT-001', 'AHP-FAIL-001'],
    profiles: ['tool-interception'],
  },
];

const names = (list: { name: string }[]) => list.map((c) => c.name);

function usage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error('expected a UsageError');
}

describe('selectors', () => {
  it('classifies IDs, profiles and patterns', () => {
    expect(parseSelector('AHP-FAIL-001')).toMatchObject({ ok: true, selector: { kind: 'requirement' } });
    expect(parseSelector('stdio')).toMatchObject({ ok: true, selector: { kind: 'profile' } });
    expect(parseSelector('AHP-FAIL-*')).toMatchObject({ ok: true, selector: { kind: 'pattern' } });
    expect(parseSelector('AHP-FAIL-999')).toMatchObject({ ok: false });
    expect(parseSelector('  ')).toMatchObject({ ok: false });
  });

  it('globs stop * at slashes, cross them with **, and select a whole subtree by its prefix', () => {
    expect(globToRegex('AHP-FAIL-001/*/hang').test('AHP-FAIL-001/transport:http/hang')).toBe(true);
    expect(globToRegex('AHP-FAIL-001/*').test('AHP-FAIL-001/a/b')).toBe(true); // subtree of a/
    expect(globToRegex('AHP-*/hang').test('AHP-FAIL-001/a/hang')).toBe(false);
    expect(globToRegex('AHP-**/hang').test('AHP-FAIL-001/a/hang')).toBe(true);
    expect(globToRegex('AHP-FAIL-001/transport:http').test('AHP-FAIL-001/transport:http/x')).toBe(true);
    expect(globToRegex('AHP-FAIL-001/transport:h').test('AHP-FAIL-001/transport:http/x')).toBe(false);
    expect(globToRegex('a.b(c)?').test('a.b(c)x')).toBe(true);
    expect(globToRegex('a.b').test('axb')).toBe(false);
  });
});

describe('selectCases', () => {
  it('keeps every case without selectors', () => {
    expect(selectCases(cases, { only: [], skip: [] })).toHaveLength(4);
  });

  it('selects by requirement ID (every asserted ID counts), profile and pattern, then skips', () => {
    expect(names(selectCases(cases, { only: ['AHP-FAIL-001'], skip: [] }))).toEqual([
      cases[0]?.name,
      cases[1]?.name,
      cases[3]?.name,
    ]);
    expect(names(selectCases(cases, { only: ['stdio'], skip: [] }))).toEqual([cases[2]?.name]);
    expect(names(selectCases(cases, { only: ['AHP-FAIL-001/transport:http'], skip: [] }))).toEqual([
      cases[0]?.name,
    ]);
    expect(
      names(selectCases(cases, { only: ['AHP-FAIL-001'], skip: ['**/policy:fail-open/*', 'AHPX-SHUT-001'] })),
    ).toEqual([cases[0]?.name]);
  });

  it('refuses a selector that matches nothing, and a selection that leaves nothing', () => {
    expect(usage(() => selectCases(cases, { only: ['AHP-HTTP-001'], skip: [] }))).toMatch(
      /^--only "AHP-HTTP-001" matches no case; run `ahp-conformance list`/,
    );
    expect(usage(() => selectCases(cases, { only: [], skip: ['nothing/*'] }))).toMatch(
      /^--skip "nothing\/\*" matches no case \(`\*` stops at `\/`; `\*\*` crosses it\)/,
    );
    expect(usage(() => selectCases(cases, { only: [], skip: ['*fail-open*'] }))).toMatch(
      /^--skip "\*fail-open\*" matches no case \(`\*` stops at `\/`; "\*\*fail-open\*\*" would match\); run/,
    );
    expect(usage(() => selectCases(cases, { only: ['stdio'], skip: ['AHP-STDIO-001'] }))).toMatch(
      /leave no case to run/,
    );
  });
});

describe('namePatternFor', () => {
  it('matches vitest full names of exactly the chosen cases', () => {
    const pattern = new RegExp(namePatternFor(['AHP-FAIL-001/a.b', 'group > AHPX-SYN-002/x']));
    expect(pattern.test('suites/f.conformance.ts AHP-FAIL-001/a.b')).toBe(true);
    expect(pattern.test('AHP-FAIL-001/a.b')).toBe(true);
    expect(pattern.test('AHP-FAIL-001/aXb')).toBe(false);
    expect(pattern.test('AHP-FAIL-001/a.b/longer')).toBe(false);
    expect(pattern.test('xAHP-FAIL-001/a.b')).toBe(false);
    expect(pattern.test('file group AHPX-SYN-002/x')).toBe(true);
  });
});
