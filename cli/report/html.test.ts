import { describe, expect, it } from 'vitest';
import { renderHtml } from './html.js';
import { HOSTILE, sampleReport } from './test-support/sample-report.js';
import { findAll, parseXml, textOf, type XmlElement } from './test-support/xml.js';

const byId = (root: XmlElement, id: string) => findAll(root, '*').find((e) => e.attributes.id === id);

describe('renderHtml', () => {
  const report = sampleReport();
  const html = renderHtml(report, { strict: false });
  const root = parseXml(html);

  it('is one well-formed, self-contained document without scripts or external resources', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(root.name).toBe('html');
    expect(findAll(root, 'script')).toEqual([]);
    for (const el of [...findAll(root, 'link'), ...findAll(root, 'img'), ...findAll(root, 'iframe')]) {
      throw new Error(`external resource element <${el.name}>`);
    }
    expect(html).not.toMatch(/\b(?:src|href)="(?:https?:)?\/\//);
  });

  it('escapes every value from the run: hostile text survives as text, never as markup', () => {
    expect(textOf(root)).toContain('<script>alert("x")</script>');
    expect(html).not.toContain('<script>');
    expect(textOf(root)).toContain(`at case <script>alert("x")</script> & 'q' \\u0001 \\ud800 ]]>`);
    expect(HOSTILE.length).toBeGreaterThan(0);
  });

  it('names the target in words, not as raw JSON', () => {
    const text = textOf(byId(root, 'details') as XmlElement);
    expect(text).toContain('Drivernode driver.mjs');
    expect(text).not.toContain('"kind"');
  });

  it('lists the distinct problems with requirement, level, sentence, summary and a link to the first case', () => {
    const problems = byId(root, 'problems') as XmlElement;
    expect(textOf(findAll(problems, 'h2')[0] as XmlElement)).toBe(
      '4 distinct problems (1 covered by known failures)',
    );
    const p1 = byId(root, 'p1') as XmlElement;
    expect(textOf(p1)).toContain('AHP-TB-001 MUST: the call id is sent as tool.callId, not call.id');
    expect(textOf(p1)).toContain(
      'Breaks spec/draft/server/lifecycle-observation.md#AHP-TB-001: a tool.before event carries the call id in call.id',
    );
    expect(textOf(p1)).toContain('explains 1 case that failed, blocks 2 cases');
    const link = findAll(p1, 'a')[0]?.attributes.href ?? '';
    const target = byId(root, link.slice(1));
    expect(target?.name).toBe('details');
    expect(textOf(target as XmlElement)).toContain('AHP-TB-001/transport:stdio-persistent/call-id');
    expect(textOf(byId(root, 'p4') as XmlElement)).toContain('known failure (line 1): upstream bug');
  });

  it('has a jump list to every section it holds', () => {
    const nav = byId(root, 'contents') as XmlElement;
    const targets = findAll(nav, 'a').map((a) => a.attributes.href?.slice(1) ?? '');
    expect(targets).toEqual([
      'problems',
      'run-errors',
      'failures',
      'warnings',
      'blocked',
      'known',
      'baseline',
      'untested',
      'exercised',
      'details',
      'requirements',
    ]);
    for (const id of targets) expect(byId(root, id), id).toBeDefined();
  });

  it('shows failures open with their message, the transcript and stderr one click away', () => {
    const failures = byId(root, 'failures') as XmlElement;
    const cases = findAll(failures, 'details').filter((d) => d.attributes.class === 'case');
    expect(cases.map((d) => textOf(findAll(d, 'summary')[0] as XmlElement))).toEqual([
      'FAIL AHP-TB-001/transport:stdio-persistent/call-id',
      'FAIL AHP-FAIL-002/transport:stdio-persistent/late-reply',
    ]);
    const late = cases[1] as XmlElement;
    expect(late.attributes.open).toBe('open');
    expect(textOf(late)).toContain('Repeated 3 times: 2 passed, 1 failed (flaky).');
    const folded = findAll(late, 'details');
    expect(folded.map((d) => [textOf(findAll(d, 'summary')[0] as XmlElement), d.attributes.open])).toEqual([
      ['Evidence: the wire transcript, frames (frames, 1)', undefined],
      ['Driver stderr during the case (last lines)', undefined],
    ]);
    expect(textOf(folded[0] as XmlElement)).toContain('+412ms');
    expect(textOf(folded[1] as XmlElement)).toContain('driver: invoking evt-1');
  });

  it('lists blocked cases with the problem that blocks them, never as passed or failed', () => {
    const blocked = byId(root, 'blocked') as XmlElement;
    const text = textOf(blocked);
    expect(text).toContain('Blocked (2)');
    expect(text).toContain('blocked AHP-CORE-004/retry-keeps-call-id');
    expect(text).toContain('blocked by p1 (AHP-TB-001: the call id is sent as tool.callId, not call.id)');
    const req = byId(root, 'req-AHP-CORE-004') as XmlElement;
    expect(textOf(req)).toBe('AHP-CORE-004 blocked');
  });

  it('says how far each claimed profile was exercised, and why the rest was not', () => {
    const exercised = textOf(byId(root, 'exercised') as XmlElement);
    expect(exercised).toMatch(/base: partly exercised \(1 of \d+ requirements checked; not checked: /);
    expect(exercised).toMatch(/AHP-DEC-002untestedno case of it ran/);
  });

  it('lists the baseline: lines to remove and lines to narrow, and run errors', () => {
    const text = textOf(byId(root, 'baseline') as XmlElement);
    expect(text).toContain(
      'stale: line 2 (AHP-REG-001) matches no failing case any more (1 pass); remove the line',
    );
    expect(text).toContain(
      'narrow: line 1 (AHP-HTTP-001/**) still tolerates failures but also matches 1 passing case',
    );
    expect(textOf(byId(root, 'run-errors') as XmlElement)).toContain('Run errors (1)');
  });

  it('has a per-requirement table linking to each requirement section', () => {
    const section = byId(root, 'requirements') as XmlElement;
    const rows = findAll(section, 'tr').filter((tr) => findAll(tr, 'a').length > 0);
    expect(rows.map((tr) => findAll(tr, 'a')[0]?.attributes.href)).toEqual(
      report.requirements.map((r) => `#req-${r.id}`),
    );
    expect(findAll(section, 'h3').map((h) => h.attributes.id)).toEqual(
      report.requirements.map((r) => `req-${r.id}`),
    );
  });

  it('says conformant, and how much ran, when nothing fails the run', () => {
    const clean = sampleReport({
      cases: [],
      runErrors: [],
      baseline: { file: 'kf', tolerated: 0, stale: [], narrow: [], entries: [] },
    });
    const text = textOf(parseXml(renderHtml(clean, { strict: false })));
    expect(text).toContain('Verdict: conformant on what ran: 0 of 0 cases.');
  });
});
