import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../protocol/json.js';
import { CATEGORY_SPECS } from './content-cases.js';
import { leakProblems, partListProblems, viewsInFrame, type View } from './content-checks.js';
import { givenConversation, marker, type GivenPart } from './content-samples.js';

const NONCE = 'n0nce';
const attachments = givenConversation(NONCE, { structured: false, media: true })
  .flatMap((m) => m.parts)
  .filter((p) => p.kind === 'attachment');

/** The views the per-category subscriptions allow a part, one group per subscription. */
const views = (part: GivenPart) => CATEGORY_SPECS.map((spec) => spec.viewsOf(part).join('|')).join(' ');

/** The attachments on the wire as a harness sends them, each in the view `viewOf` gives it. */
function wireParts(viewOf: (part: GivenPart) => View): JsonObject[] {
  return attachments.map((p) => ({
    id: p.id,
    kind: p.kind,
    mediaType: p.mediaType,
    ...(p.category === undefined ? {} : { category: p.category }),
    selection: viewOf(p),
    ...(viewOf(p) === 'body' ? { gap: { reason: 'upload-unavailable' } } : {}),
  }));
}

/** Every finding of the attachments through the subscription that lists files, frame and leaks. */
function perMediaProblems(viewOf: (part: GivenPart) => View, leakedId?: string): string[] {
  const spec = CATEGORY_SPECS[1];
  if (spec === undefined) throw new Error('no per-media subscription');
  const wire = wireParts(viewOf);
  const text = JSON.stringify({ items: wire, note: leakedId === undefined ? '' : marker(NONCE, leakedId) });
  return [
    ...partListProblems(attachments, wire, spec.viewsOf, '$'),
    ...leakProblems(text, NONCE, attachments, viewsInFrame(spec.viewsOf, wire)),
  ].map((f) => f.message);
}

/** The view of each attachment the reference's reading gives through the per-media subscription. */
const FILES_READING: Record<string, View> = {
  'image/png': 'metadata',
  'audio/ogg': 'omit',
  'video/mp4': 'omit',
  'application/pdf': 'body',
  'image/jpeg': 'body',
};

describe('the per-category selection case', () => {
  it('hands in an uncategorized attachment of each media-derived category, one of no category, one filed explicitly', () => {
    expect(attachments.map((p) => [p.mediaType, p.mediaCategory, p.category])).toEqual([
      ['image/png', 'images', undefined],
      ['audio/ogg', 'audio', undefined],
      ['video/mp4', 'video', undefined],
      ['application/pdf', undefined, undefined],
      ['image/jpeg', undefined, 'files'],
    ]);
  });

  it('gives each of them views no other category and no unlisted one gets', () => {
    // A part filed under a category no reading allows it, or under one no subscription lists
    // where the draft files it elsewhere, shows in at least one subscription's view.
    const unlisted: GivenPart = {
      id: 'x',
      kind: 'attachment',
      mediaType: 'x/y',
      category: 'dev.example.none',
    };
    const seen = [...attachments, unlisted].map(views);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('accepts a PDF filed under files or under no category, the draft naming none for its media type', () => {
    const reading = (p: GivenPart) => FILES_READING[p.mediaType] as View;
    expect(perMediaProblems(reading)).toEqual([]);
    // The default's view: the reading of a harness that maps no media type to files.
    expect(perMediaProblems((p) => (p.id === 'user-6' ? 'metadata' : reading(p)))).toEqual([]);
    // ... and in that view its reference is withheld, so a copy of it elsewhere is a leak.
    expect(perMediaProblems((p) => (p.id === 'user-6' ? 'metadata' : reading(p)), 'user-6')).toEqual([
      expect.stringMatching(/user-6, selected metadata, is in the frame/),
    ]);
  });

  it('fails a view no reading allows, and an explicit files category not honoured', () => {
    const reading = (p: GivenPart) => FILES_READING[p.mediaType] as View;
    expect(perMediaProblems((p) => (p.id === 'user-6' ? 'omit' : reading(p)))).toEqual([
      expect.stringMatching(/\(user-6\) is a "omit" view; the subscription selects body or metadata/),
    ]);
    // The explicit category decides: an image filed under files is no longer selected as an image.
    expect(perMediaProblems((p) => (p.id === 'user-8' ? 'metadata' : reading(p)))).toEqual([
      expect.stringMatching(/\(user-8\) is a "metadata" view; the subscription selects body$/),
    ]);
  });
});
