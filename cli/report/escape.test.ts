import { describe, expect, it } from 'vitest';
import { escapeMarkup, uniqueCases } from './escape.js';

describe('escapeMarkup', () => {
  it('escapes markup characters and makes characters XML forbids visible', () => {
    expect(escapeMarkup(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(escapeMarkup('a\u0000b\u001bc\tok\n')).toBe('a\\u0000b\\u001bc\tok\n');
    expect(escapeMarkup('lone \uD800 pair \uD83D\uDE00 end \uDC00')).toBe(
      'lone \\ud800 pair \uD83D\uDE00 end \\udc00',
    );
  });
});

describe('uniqueCases', () => {
  it('lists a case under several requirements once, in first-seen order', () => {
    const a = { name: 'a' };
    const b = { name: 'b' };
    expect(uniqueCases([{ cases: [a, b] }, { cases: [b] }])).toEqual([a, b]);
  });
});
