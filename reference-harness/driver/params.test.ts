import { describe, expect, it } from 'vitest';
import { parseInvoke } from './params.js';
import { NO_UPLOAD_GAP } from '../content-selection.js';

const image = { id: 'img', kind: 'attachment', mediaType: 'image/png', selection: 'body' };

describe('parseInvoke: attachment bytes (v1.2)', () => {
  it('decodes each bodyBase64 once and hands the harness a part without a reference', () => {
    const params = {
      event: {
        type: 'turn.start',
        turn: { id: 't' },
        trigger: 'user',
        items: [{ id: 'm', role: 'user', parts: [{ ...image, bodyBase64: 'AP8BAg==' }] }],
      },
    };
    const parsed = parseInvoke(params);
    expect(parsed.attachments).toEqual(new Map([['img', new Uint8Array([0, 255, 1, 2])]]));
    const fields = (parsed.input as unknown as { fields: { items: Array<{ parts: unknown[] }> } }).fields;
    expect(fields.items[0]?.parts[0]).toEqual({ ...image, gap: { reason: NO_UPLOAD_GAP } });
    // The params themselves are left as they were.
    expect(params.event.items[0]?.parts[0]).toHaveProperty('bodyBase64');
  });

  it('refuses bytes that are not padded base64, naming the field', () => {
    const event = { type: 'turn.start', items: [{ ...image, bodyBase64: 'AP8BAg' }] };
    expect(() => parseInvoke({ event })).toThrow(/params\.event\.items\[0\]\.bodyBase64/);
  });

  it('hands in no attachments when no part carries bytes', () => {
    expect(parseInvoke({ event: { type: 'turn.start', items: [image] } }).attachments).toBeUndefined();
  });
});
