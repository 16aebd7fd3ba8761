import { describe, expect, it } from 'vitest';
import { renderJunit } from './junit.js';
import { sampleCases, sampleReport } from './test-support/sample-report.js';
import { findAll, parseXml, textOf, type XmlElement } from './test-support/xml.js';

const OUTCOMES = ['failure', 'error', 'skipped'];

/** The structural rules CI readers rely on (the common JUnit XSD): counts add up, names present, one outcome per case. */
function checkJunitShape(root: XmlElement): void {
  expect(root.name).toBe('testsuites');
  const suites = findAll(root, 'testsuite');
  expect(suites.length).toBeGreaterThan(0);
  for (const suite of [root, ...suites]) {
    const cases = findAll(suite, 'testcase');
    const outcome = (kind: string) =>
      cases.filter((c) => c.children.some((k) => typeof k !== 'string' && k.name === kind)).length;
    expect(suite.attributes.tests).toBe(String(cases.length));
    expect(suite.attributes.failures).toBe(String(outcome('failure')));
    expect(suite.attributes.errors).toBe(String(outcome('error')));
    expect(suite.attributes.skipped).toBe(String(outcome('skipped')));
    expect(suite.attributes.time).toMatch(/^\d+\.\d{3}$/);
  }
  for (const suite of suites) {
    expect(suite.attributes.name).toBeTruthy();
    expect(suite.attributes.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  }
  for (const c of findAll(root, 'testcase')) {
    expect(c.attributes.name).toBeTruthy();
    expect(c.attributes.classname).toBeTruthy();
    expect(c.attributes.time).toMatch(/^\d+\.\d{3}$/);
    const kinds = c.children.filter((k): k is XmlElement => typeof k !== 'string').map((k) => k.name);
    expect(kinds.filter((k) => OUTCOMES.includes(k)).length).toBeLessThanOrEqual(1);
    for (const k of kinds) expect([...OUTCOMES, 'system-out']).toContain(k);
  }
}

function caseNamed(root: XmlElement, name: string): XmlElement {
  const found = findAll(root, 'testcase').find((c) => c.attributes.name === name);
  if (!found) throw new Error(`no testcase ${name}`);
  return found;
}

function outcomeOf(testcase: XmlElement): XmlElement | undefined {
  return testcase.children.find((k): k is XmlElement => typeof k !== 'string' && OUTCOMES.includes(k.name));
}

describe('renderJunit', () => {
  const report = sampleReport();
  const root = parseXml(renderJunit(report, { strict: false }));

  it('is well-formed XML in the shape CI readers expect', () => {
    checkJunitShape(root);
  });

  it('has one testcase per case with its requirement ID as classname and name prefix', () => {
    const names = findAll(root, 'testcase').map((c) => c.attributes.name ?? '');
    const caseNames = names.filter((n) => /^AHPX?-/.test(n));
    expect(caseNames).toHaveLength(11); // the case under two requirements appears once
    expect(new Set(caseNames).size).toBe(caseNames.length);
    for (const c of findAll(root, 'testcase').filter((t) => /^AHPX?-/.test(t.attributes.name ?? ''))) {
      expect(c.attributes.name?.startsWith(c.attributes.classname ?? '?')).toBe(true);
    }
    expect(caseNamed(root, 'AHP-FAIL-002/transport:stdio-persistent/late-reply').attributes.time).toBe(
      '1.543',
    );
  });

  it('fails MUST failures with their message, errors and wire transcript, hostile text intact', () => {
    const failure = outcomeOf(caseNamed(root, 'AHP-FAIL-002/transport:stdio-persistent/late-reply'));
    expect(failure?.name).toBe('failure');
    expect(failure?.attributes.message).toBe('expected deny, got continue');
    const body = textOf(failure as XmlElement);
    expect(body).toContain('evidence (wire transcript)');
    expect(body).toContain('<script>alert(\\"x\\")</script> & \'q\' \\u0001 \\ud800 ]]>');
    expect(body).toContain('flaky: passed 2 of 3 runs');
  });

  it('makes exactly what fails the run a failure: SHOULD warnings, known failures and untested are skipped', () => {
    expect(outcomeOf(caseNamed(root, 'AHPX-SYN-002/generic-reason'))?.attributes.message).toMatch(
      /^warning: SHOULD not met/,
    );
    expect(outcomeOf(caseNamed(root, 'AHP-HTTP-001/status-500'))).toMatchObject({
      name: 'skipped',
      attributes: { message: 'known failure (line 1): upstream bug' },
    });
    expect(outcomeOf(caseNamed(root, 'AHP-CORE-004/retry-identity'))?.attributes.message).toBe(
      'untested: the driver cannot configure retries',
    );
    expect(outcomeOf(caseNamed(root, 'AHP-FAIL-001/transport:http/policy:fail-closed/hang'))).toBeUndefined();
    const strict = parseXml(renderJunit(report, { strict: true }));
    expect(outcomeOf(caseNamed(strict, 'AHPX-SYN-002/generic-reason'))?.name).toBe('failure');
  });

  it('shows a blocked case as skipped with its cause: the problem, its requirement and summary', () => {
    expect(outcomeOf(caseNamed(root, 'AHP-CORE-004/retry-keeps-call-id'))).toMatchObject({
      name: 'skipped',
      attributes: {
        message: 'blocked by p1 (AHP-TB-001 MUST): the call id is sent as tool.callId, not call.id',
      },
    });
    // The failure the problem explains names it too.
    expect(
      textOf(outcomeOf(caseNamed(root, 'AHP-TB-001/transport:stdio-persistent/call-id')) as XmlElement),
    ).toMatch(/^problem p1 \(AHP-TB-001 MUST\): the call id is sent as tool.callId/);
  });

  it('fails a MUST problem that shows only blocked cases, so CI goes red with the exit code', () => {
    const onlyBlocked = sampleReport({
      cases: sampleCases().filter((c) => !c.name.startsWith('AHP-TB-001/')),
    });
    const xml = parseXml(renderJunit(onlyBlocked, { strict: false }));
    checkJunitShape(xml);
    // It explains no failing case, so it is listed after those that do: found by its requirement.
    const problem = findAll(xml, 'testcase').find((c) =>
      /^problem p\d+: AHP-TB-001$/.test(c.attributes.name ?? ''),
    );
    if (!problem) throw new Error('no testcase for the AHP-TB-001 problem');
    expect(outcomeOf(problem)).toMatchObject({
      name: 'failure',
      attributes: {
        message: 'AHP-TB-001 MUST: the call id is sent as tool.callId, not call.id (blocks 2 cases)',
      },
    });
  });

  it('reports a stale baseline line and run errors as failing testcases', () => {
    expect(outcomeOf(caseNamed(root, 'AHP-REG-001/no-policy'))).toBeUndefined();
    expect(outcomeOf(caseNamed(root, 'known-failures line 2: AHP-REG-001'))?.attributes).toMatchObject({
      type: 'stale-known-failure',
      message:
        'stale known failure: line 2 of known-failures.txt (AHP-REG-001) matches no failing case any more (1 pass); remove the line',
    });
    expect(outcomeOf(caseNamed(root, 'run error 1'))?.name).toBe('error');
    expect(root.attributes).toMatchObject({ tests: '13', failures: '3', errors: '1', skipped: '6' });
  });

  it('records the seed and the target as properties', () => {
    const props = Object.fromEntries(
      findAll(root, 'property').map((p) => [p.attributes.name, p.attributes.value]),
    );
    expect(props.seed).toBe('1234');
    expect(JSON.parse(props.target ?? '')).toEqual(report.target);
  });
});

describe('parseXml (the test reader itself)', () => {
  it('rejects what CI readers reject', () => {
    expect(() => parseXml('<a><b></a>')).toThrow(/unexpected close tag/);
    expect(() => parseXml('<a x=1/>')).toThrow(/unquoted attribute/);
    expect(() => parseXml('<a>1 < 2</a>')).toThrow();
    expect(() => parseXml('<a>R&D</a>')).toThrow();
    expect(() => parseXml('<a>&nbsp;</a>')).toThrow(/undefined entity/);
    expect(() => parseXml('<a>\u0001</a>')).toThrow(/disallowed character/);
    expect(() => parseXml('<a/><b/>')).toThrow(/only one root/);
    expect(() => parseXml('<a x="1" x="2"/>')).toThrow(/duplicate attribute/);
    expect(parseXml('<?xml version="1.0"?>\n<a k="&lt;&#65;">t&amp;<b/></a>')).toEqual({
      name: 'a',
      attributes: { k: '<A' },
      children: ['t&', { name: 'b', attributes: {}, children: [] }],
    });
  });
});
