import { describe, expect, it } from 'vitest';
import {
  isJsonMediaType,
  validateElicitationContent,
  validateMessage,
  validateMessageList,
  validatePart,
  validatePartList,
} from './content.js';
import type { JsonObject } from './json.js';
import { sampleMessage, sampleTextPart } from './test-samples.js';

const paths = (vs: { path: string }[]) => vs.map((v) => v.path);
const attachment = (extra: JsonObject = {}): JsonObject => ({
  id: 'a1',
  kind: 'attachment',
  mediaType: 'image/png',
  selection: 'body',
  body: { ref: 'upload-1' },
  ...extra,
});

describe('validatePart', () => {
  it('accepts body, metadata, omit and gap views of text and attachments', () => {
    expect(validatePart(sampleTextPart(), '$')).toEqual([]);
    const { text: _t, ...noText } = sampleTextPart();
    expect(validatePart({ ...noText, selection: 'metadata' }, '$')).toEqual([]);
    expect(
      validatePart({ ...noText, selection: 'omit', category: 'tool_result', synthesized: true }, '$'),
    ).toEqual([]);
    expect(validatePart({ ...noText, gap: { reason: 'unavailable' } }, '$')).toEqual([]);
    expect(validatePart(attachment(), '$')).toEqual([]);
    const { body: _b, ...noBody } = attachment();
    expect(validatePart({ ...noBody, selection: 'metadata' }, '$')).toEqual([]);
  });

  it('rejects text leaking through metadata, omit and gap views (AHP-CONTENT-002)', () => {
    for (const view of [{ selection: 'metadata' }, { selection: 'omit' }, { gap: { reason: 'x' } }]) {
      const out = validatePart({ ...sampleTextPart(), ...view }, '$');
      expect(out).toContainEqual({
        path: '$.text',
        message: expect.any(String),
        requirement: 'AHP-CONTENT-002',
      });
    }
    expect(paths(validatePart(attachment({ selection: 'metadata' }), '$'))).toEqual(['$.body']);
  });

  it('rejects the wrong shapes of text parts', () => {
    expect(paths(validatePart({ ...sampleTextPart(), mediaType: 'text/markdown' }, '$'))).toEqual([
      '$.mediaType',
    ]);
    expect(paths(validatePart({ ...sampleTextPart(), text: 42 }, '$'))).toEqual(['$.text', '$.text']);
    const { text: _t, ...noText } = sampleTextPart();
    expect(paths(validatePart({ ...noText, body: { ref: 'r' } }, '$'))).toEqual(['$.body', '$.text']);
    expect(paths(validatePart(noText, '$'))).toEqual(['$.text']);
  });

  it('keeps parts closed: no role, parent identity or JSON kind', () => {
    expect(paths(validatePart({ ...sampleTextPart(), role: 'user' }, '$'))).toEqual(['$.role']);
    expect(paths(validatePart({ ...sampleTextPart(), parentItemId: 'm1' }, '$'))).toEqual(['$.parentItemId']);
    expect(
      paths(validatePart({ id: 'j', kind: 'json', mediaType: 'application/json', selection: 'body' }, '$')),
    ).toEqual(['$.kind']);
  });

  it('keeps attachment bytes out: body is exactly {ref}, media is never text or JSON', () => {
    expect(paths(validatePart(attachment({ body: { ref: 'r', text: 'edited' } }), '$'))).toEqual(['$.body']);
    expect(paths(validatePart(attachment({ body: { ref: 'r', size: -1 } }), '$'))).toEqual(['$.body']);
    expect(paths(validatePart(attachment({ mediaType: 'application/json' }), '$'))).toEqual(['$.mediaType']);
    expect(paths(validatePart(attachment({ mediaType: 'application/vnd.x+json' }), '$'))).toEqual([
      '$.mediaType',
    ]);
    expect(paths(validatePart(attachment({ mediaType: 'text/csv' }), '$'))).toEqual(['$.mediaType']);
    expect(paths(validatePart(attachment({ text: 'x' }), '$'))).toEqual(['$.text']);
  });

  it('recognizes JSON media types with parameters and suffixes', () => {
    expect(isJsonMediaType('application/json; charset=utf-8')).toBe(true);
    expect(isJsonMediaType('application/ld+json')).toBe(true);
    expect(isJsonMediaType('image/png')).toBe(false);
  });
});

describe('messages and lists', () => {
  it('accepts canonical messages of every role', () => {
    for (const role of ['system', 'developer', 'user', 'assistant', 'tool']) {
      expect(validateMessage(sampleMessage(role), '$')).toEqual([]);
    }
  });

  it('rejects a missing, unknown or non-string role and unknown message fields', () => {
    const { role: _r, ...noRole } = sampleMessage();
    expect(paths(validateMessage(noRole, '$'))).toEqual(['$.role']);
    expect(paths(validateMessage({ ...sampleMessage(), role: 'robot' }, '$'))).toEqual(['$.role']);
    expect(paths(validateMessage({ ...sampleMessage(), role: 1 }, '$'))).toEqual(['$.role']);
    expect(paths(validateMessage({ ...sampleMessage(), name: 'x' }, '$'))).toEqual(['$.name']);
    expect(paths(validateMessage({ ...sampleMessage(), parts: {} }, '$'))).toEqual(['$.parts']);
  });

  it('tells a message list from a part list', () => {
    expect(validateMessageList([sampleMessage()], '$.v')).toEqual([]);
    expect(validatePartList([sampleTextPart()], '$.v')).toEqual([]);
    expect(paths(validateMessageList([sampleTextPart()], '$.v'))).toContain('$.v[0].role');
    expect(paths(validatePartList([sampleMessage()], '$.v'))).toContain('$.v[0].role');
    expect(paths(validateMessageList({}, '$.v'))).toEqual(['$.v']);
  });
});

describe('validateElicitationContent', () => {
  it('accepts flat form answers and rejects nesting and non-objects', () => {
    expect(validateElicitationContent({ a: 'x', b: 2, c: true, d: ['p', 'q'] }, '$')).toEqual([]);
    expect(paths(validateElicitationContent({ a: { b: 1 }, c: [1] }, '$'))).toEqual(['$.a', '$.c']);
    expect(paths(validateElicitationContent([], '$'))).toEqual(['$']);
  });
});
