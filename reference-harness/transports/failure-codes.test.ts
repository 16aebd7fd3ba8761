import { describe, expect, it } from 'vitest';
import { isFailureClass } from '../../protocol/failure-classes.js';
import {
  TRANSPORT_FAILURE_CODES,
  TRANSPORT_FAILURE_CODE_LIST,
  abortedFailure,
  failedReply,
  framingCode,
  preview,
  transportFailure,
} from './failure-codes.js';

describe('transport failure codes', () => {
  it('maps every code to one of the twelve failure classes and prefixes it by area', () => {
    expect(TRANSPORT_FAILURE_CODE_LIST.length).toBeGreaterThan(20);
    for (const code of TRANSPORT_FAILURE_CODE_LIST) {
      expect(isFailureClass(TRANSPORT_FAILURE_CODES[code])).toBe(true);
      expect(code).toMatch(/^(stdio|http|auth)\.[a-z0-9.-]+$|^deadline$/);
    }
  });

  it('derives the class from the code', () => {
    expect(transportFailure('http.redirect', 'x')).toEqual({
      failureClass: 'http-status',
      code: 'http.redirect',
      detail: 'x',
    });
    expect(transportFailure(framingCode('invalid-utf8'), 'x').failureClass).toBe('malformed');
    expect(transportFailure('auth.env-missing', 'x').failureClass).toBe('auth');
    expect(transportFailure('stdio.signal', 'x').failureClass).toBe('process');
    expect(transportFailure('http.connection-refused', 'x').failureClass).toBe('connection');
  });

  it('keeps raw bytes only when given', () => {
    expect(failedReply('stdio.no-reply', 'd')).not.toHaveProperty('raw');
    expect(failedReply('stdio.no-reply', 'd', new Uint8Array([1]))).toHaveProperty('raw');
  });

  it('reports an abort as deadline-exceeded naming the reason', () => {
    const c = new AbortController();
    c.abort(new DOMException('t', 'TimeoutError'));
    const f = abortedFailure(c.signal);
    expect(f.failureClass).toBe('deadline-exceeded');
    expect(f.detail).toContain('TimeoutError');
  });

  it('previews bytes with a bound', () => {
    expect(preview(new TextEncoder().encode('ab\n'))).toBe('"ab\\n"');
    expect(preview(new Uint8Array(300).fill(0x41), 4)).toBe('"AAAA"... (300 bytes)');
  });
});
