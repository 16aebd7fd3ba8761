import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from './closest-name.js';

describe('closestName', () => {
  it('suggests only plausible neighbours', () => {
    expect(closestName('--reporters', ['--reporter', '--repeat'])).toBe('--reporter');
    expect(closestName('--zzzzzz', ['--reporter', '--repeat'])).toBeUndefined();
    expect(closestName('late-replies', ['late-reply', 'hang', 'deny'])).toBe('late-reply');
  });

  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('hang', 'hangg')).toBe(1);
    expect(editDistance('deny', 'denny')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});
