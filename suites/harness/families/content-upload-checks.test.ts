import { describe, expect, it } from 'vitest';
import { UPLOAD_TARGET } from '../kit/backend-set.js';
import type { UploadPost } from '../kit/upload-records.js';
import {
  frameReferenceProblems,
  missingUploadProblem,
  reportedUploadProblems,
  uploadFramingProblems,
} from './content-upload-checks.js';

const given = { partId: 'img', size: 3, sha256: 'a'.repeat(64) };
const post = (extra: Partial<UploadPost> = {}): UploadPost => ({
  method: 'POST',
  path: UPLOAD_TARGET,
  headers: {},
  body: new Uint8Array(3),
  size: 3,
  sha256: given.sha256,
  framing: [],
  arrivedAtWallMs: 100,
  status: 201,
  receipt: { ref: 'r-1', size: 3, sha256: given.sha256 },
  answeredAtWallMs: 110,
  ...extra,
});
const slot = (body: unknown) => [
  {
    id: 'm',
    role: 'user',
    parts: [{ id: 'img', kind: 'attachment', selection: 'body', ...(body as object) }],
  },
];
const rules = (found: { rule: string }[]) => found.map((f) => f.rule);

describe('upload checks', () => {
  it('framing: the exact target, the recorded faults, the raw octets', () => {
    expect(uploadFramingProblems([post()], given)).toEqual([]);
    const bad = uploadFramingProblems(
      [post({ path: '/', framing: ['AHP-Content-SHA256 is missing'], sha256: 'b'.repeat(64), size: 4 })],
      given,
    );
    expect(rules(bad)).toEqual([
      'content.upload-framing',
      'content.upload-framing',
      'content.upload-framing',
    ]);
  });

  it('confirmed: exactly {ref} of a confirming receipt, after it was sent; else a finding', () => {
    const expected = { given, posts: [post()], confirms: true };
    expect(frameReferenceProblems(slot({ body: { ref: 'r-1' } }), '$.items', 200, expected)).toEqual([]);
    expect(frameReferenceProblems(slot({ body: { ref: 'r-1' } }), '$.items', 105, expected)).toHaveLength(1);
    expect(frameReferenceProblems(slot({ body: { ref: 'r-2' } }), '$.items', 200, expected)).toHaveLength(1);
    expect(frameReferenceProblems(slot({ gap: { reason: 'x' } }), '$.items', 200, expected)).toHaveLength(1);
    expect(
      frameReferenceProblems(
        slot({ body: { ref: 'r-1', size: 3, sha256: given.sha256 } }),
        '$.items',
        200,
        expected,
      ),
    ).toHaveLength(1);
  });

  it('failed: a wrong-digest receipt confirms nothing; a gap passes, its ref does not', () => {
    const wrong = post({ receipt: { ref: 'r-1', size: 3, sha256: 'c'.repeat(64) } });
    const expected = { given, posts: [wrong], confirms: false };
    expect(
      frameReferenceProblems(slot({ gap: { reason: 'upload-failed' } }), '$.items', 200, expected),
    ).toEqual([]);
    const found = frameReferenceProblems(slot({ body: { ref: 'r-1' } }), '$.items', 200, expected);
    expect(found.map((f) => f.message)).toEqual([
      expect.stringContaining('the receipt that returned it does not confirm the upload'),
    ]);
    expect(frameReferenceProblems(slot({ gap: {} }), '$.items', 200, expected)).toHaveLength(1);
    expect(frameReferenceProblems(slot({}), '$.items', 200, expected)).toHaveLength(1);
    expect(missingUploadProblem([], given)).toHaveLength(1);
  });

  it("the driver's report agrees with the receipts", () => {
    const expected = { given, posts: [post()], confirms: true };
    const entry = { backendId: 'b', partId: 'img', ref: 'r-1' };
    expect(reportedUploadProblems(undefined, 'b', expected)).toEqual([]);
    expect(reportedUploadProblems([entry], 'b', expected)).toEqual([]);
    expect(reportedUploadProblems([], 'b', expected)).toHaveLength(1);
    expect(reportedUploadProblems([{ ...entry, ref: 'made-up' }], 'b', expected)).toHaveLength(2);
  });
});
