import { describe, expect, it } from 'vitest';
import { counted, noun } from './count.js';

describe('counted', () => {
  it('puts the noun in the singular for one and in the plural otherwise', () => {
    expect(counted(1, 'problem')).toBe('1 problem');
    expect(counted(0, 'problem')).toBe('0 problems');
    expect(counted(2, 'more problem')).toBe('2 more problems');
    expect(counted(1, 'entry', 'entries')).toBe('1 entry');
    expect(counted(3, 'entry', 'entries')).toBe('3 entries');
    expect(noun(1, 'case')).toBe('case');
    expect(noun(7, 'case')).toBe('cases');
  });
});
