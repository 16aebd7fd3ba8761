import { describe, expect, it } from 'vitest';
import { docBlocks, needsMarker, parseMarker, where } from './doc-blocks.js';

describe('doc-test markers', () => {
  it('reads keys with bare and quoted values, and flags', () => {
    expect(parseMarker(' slow exit=1 stdout="Verdict: not conformant" copy="a.mjs, b.json" ')).toEqual({
      slow: true,
      exit: 1,
      stdout: 'Verdict: not conformant',
      copy: ['a.mjs', 'b.json'],
    });
    expect(parseMarker('serve="\\"url\\""')).toMatchObject({ serve: '"url"', exit: 0, slow: false });
  });

  it('refuses what it cannot read, naming it', () => {
    expect(() => parseMarker('exit=zero')).toThrow('exit must be a number, not "zero"');
    expect(() => parseMarker('expect=1')).toThrow('unknown marker key "expect"');
    expect(() => parseMarker('stdout')).toThrow('marker key "stdout" needs a value');
  });
});

describe('docBlocks', () => {
  const page = [
    '# Title',
    '',
    '```sh',
    'npx ahp-conformance list',
    '```',
    '',
    '<!-- doc-test: exit=0 stdout="case(s)" -->',
    '',
    '```json',
    '{}',
    '```',
    '',
    'prose',
    '```ts',
    'const x = 1;',
    '```',
    '<!-- doc-test: exit=nine -->',
  ].join('\n');

  it('finds each fenced block with its line, language and the marker after it', () => {
    const [sh, json, ts] = docBlocks('docs/x.md', page);
    expect(sh).toMatchObject({ line: 3, lang: 'sh', body: 'npx ahp-conformance list\n' });
    expect(sh?.marker).toMatchObject({ exit: 0, stdout: 'case(s)' });
    expect(json?.marker).toBeUndefined();
    expect(ts?.markerError).toBe('exit must be a number, not "nine"');
    expect([sh, json, ts].map((b) => b && needsMarker(b))).toEqual([true, false, true]);
    expect(sh && where(sh)).toBe('docs/x.md:3 (sh block: npx ahp-conformance list)');
  });

  it('does not take a marker that follows prose for the block before it', () => {
    const blocks = docBlocks('p.md', '```sh\nls\n```\ntext\n<!-- doc-test: exit=0 -->\n');
    expect(blocks[0]?.marker).toBeUndefined();
  });
});
