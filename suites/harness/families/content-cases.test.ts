import { describe, expect, it } from 'vitest';
import { CATEGORY_SPECS } from './content-cases.js';
import { givenConversation, type GivenPart } from './content-samples.js';

const attachments = givenConversation('n0nce', { structured: false, media: true })
  .flatMap((m) => m.parts)
  .filter((p) => p.kind === 'attachment');

/** The views the per-category subscriptions give a part, one per subscription. */
const views = (part: GivenPart) => CATEGORY_SPECS.map((spec) => spec.viewOf(part)).join(' ');

describe('the per-category selection case', () => {
  it('hands in an uncategorized attachment of each media-derived category', () => {
    expect(attachments.map((p) => [p.mediaType, p.mediaCategory, p.category])).toEqual([
      ['image/png', 'images', undefined],
      ['audio/ogg', 'audio', undefined],
      ['video/mp4', 'video', undefined],
      ['application/pdf', 'files', undefined],
    ]);
  });

  it('gives each of them views no other category and no unlisted one gets', () => {
    // A part filed under another category, or under one no subscription lists (the default
    // then), shows in at least one subscription's view.
    const unlisted: GivenPart = {
      id: 'x',
      kind: 'attachment',
      mediaType: 'x/y',
      category: 'dev.example.none',
    };
    const seen = [...attachments, unlisted].map(views);
    expect(new Set(seen).size).toBe(seen.length);
  });
});
