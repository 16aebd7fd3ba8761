import { describe, expect, it } from 'vitest';
import { REDACTED, redactJson, redactText } from './redact.js';

describe('redaction', () => {
  it('replaces every occurrence of every secret in text', () => {
    expect(redactText('Bearer s3cr3t and s3cr3t again, k2', ['s3cr3t', 'k2'])).toBe(
      `Bearer ${REDACTED} and ${REDACTED} again, ${REDACTED}`,
    );
    expect(redactText('nothing here', [''])).toBe('nothing here');
  });

  it('walks JSON values, keys included, without touching other values', () => {
    const value = { frames: [{ text: 'tok=abc' }], abc: 1, n: 2, ok: true, none: null };
    expect(redactJson(value, ['abc'])).toEqual({
      frames: [{ text: `tok=${REDACTED}` }],
      [REDACTED]: 1,
      n: 2,
      ok: true,
      none: null,
    });
    expect(value.frames[0]?.text).toBe('tok=abc');
  });
});
