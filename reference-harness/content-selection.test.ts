import { describe, expect, it } from 'vitest';
import { validateEvent } from '../protocol/event-validation.js';
import type { JsonObject } from '../protocol/json.js';
import { contentView, NO_UPLOAD_GAP, partCategory, selectedView } from './content-selection.js';
import { keepPreparedBody } from './prepared-bodies.js';

const SECRET = 'the build password is hunter2';

function turnStart(): JsonObject {
  return {
    id: 'evt_1',
    source: 'urn:test:harness',
    type: 'turn.start',
    time: '2026-09-15T12:00:00Z',
    turn: { id: 'turn_1' },
    trigger: 'user',
    native: { raw: SECRET },
    items: [
      {
        id: 'm1',
        role: 'user',
        parts: [
          { id: 'm1-a', kind: 'text', mediaType: 'text/plain', selection: 'body', text: SECRET },
          {
            id: 'm1-b',
            kind: 'attachment',
            mediaType: 'image/png',
            selection: 'body',
            body: { ref: 'host-ref-1' },
          },
          {
            id: 'm1-c',
            kind: 'text',
            mediaType: 'text/plain',
            selection: 'body',
            category: 'reasoning',
            text: 'thinking aloud',
          },
        ],
      },
    ],
  };
}

function partsOf(event: JsonObject): JsonObject[] {
  return ((event.items as JsonObject[])[0] as JsonObject).parts as JsonObject[];
}

describe('content selection per subscription', () => {
  it('returns the event itself when it has no content slot', () => {
    const event = { id: 'e', type: 'tool.before', tool: { name: 'Bash', input: {} } };
    expect(contentView(event, { content: { default: 'omit' } })).toBe(event);
  });

  it('derives categories from the explicit category, else text or the media family', () => {
    expect(partCategory({ kind: 'text', mediaType: 'text/plain' })).toBe('text');
    expect(partCategory({ kind: 'text', mediaType: 'text/plain', category: 'reasoning' })).toBe('reasoning');
    expect(partCategory({ kind: 'attachment', mediaType: 'image/png' })).toBe('images');
    expect(partCategory({ kind: 'attachment', mediaType: 'audio/ogg' })).toBe('audio');
    expect(partCategory({ kind: 'attachment', mediaType: 'video/mp4' })).toBe('video');
    expect(partCategory({ kind: 'attachment', mediaType: 'application/pdf' })).toBe('files');
    expect(selectedView({ default: 'omit', text: 'body' }, 'text')).toBe('body');
    expect(selectedView({ default: 'omit', text: 'body' }, 'unheard-of')).toBe('omit');
  });

  it('keeps inline text in a body view and the given order of parts', () => {
    const view = contentView(turnStart(), { content: { default: 'body' } });
    const parts = partsOf(view);
    expect(parts.map((p) => p.id)).toEqual(['m1-a', 'm1-b', 'm1-c']);
    expect(parts[0]).toEqual({
      id: 'm1-a',
      kind: 'text',
      mediaType: 'text/plain',
      selection: 'body',
      text: SECRET,
    });
    // No upload binding here: the attachment is a body view with a gap, never a borrowed ref.
    expect(parts[1]).toEqual({
      id: 'm1-b',
      kind: 'attachment',
      mediaType: 'image/png',
      selection: 'body',
      gap: { reason: NO_UPLOAD_GAP },
    });
    expect(validateEvent(view)).toEqual([]);
  });

  it("carries only the reference an upload to this subscription confirmed, else that upload's gap", () => {
    const event = turnStart();
    const attachment = partsOf(event)[1] as JsonObject;
    const confirmed = { content: { default: 'body' as const } };
    const failed = { content: { default: 'body' as const } };
    const metadata = { content: { default: 'metadata' as const } };
    keepPreparedBody(attachment, confirmed, { ref: 'receipt-ref-1' });
    keepPreparedBody(attachment, failed, { gap: 'upload-timeout' });
    keepPreparedBody(attachment, metadata, { ref: 'never-shown' });
    expect(partsOf(contentView(event, confirmed))[1]).toEqual({
      id: 'm1-b',
      kind: 'attachment',
      mediaType: 'image/png',
      selection: 'body',
      body: { ref: 'receipt-ref-1' },
    });
    expect(partsOf(contentView(event, failed))[1]).toMatchObject({ gap: { reason: 'upload-timeout' } });
    expect(partsOf(contentView(event, failed))[1]).not.toHaveProperty('body');
    expect(partsOf(contentView(event, metadata))[1]).not.toHaveProperty('body');
    // Another subscription, or a copy of the part, has no upload of its own: a gap.
    expect(partsOf(contentView(turnStart(), confirmed))[1]).toMatchObject({ gap: { reason: NO_UPLOAD_GAP } });
    expect(validateEvent(contentView(event, confirmed))).toEqual([]);
  });

  it('gives metadata and omit views the descriptor and the view name, never text or body', () => {
    for (const selection of ['metadata', 'omit'] as const) {
      const view = contentView(turnStart(), { content: { default: selection } });
      for (const part of partsOf(view)) {
        expect(part.selection).toBe(selection);
        expect(part).not.toHaveProperty('text');
        expect(part).not.toHaveProperty('body');
        expect(part).not.toHaveProperty('gap');
      }
      expect(partsOf(view)[2]).toHaveProperty('category', 'reasoning');
      expect(JSON.stringify(view)).not.toContain('hunter2');
      expect(validateEvent(view)).toEqual([]);
    }
  });

  it('applies per-category values over the default, and the explicit category over the media', () => {
    const view = contentView(turnStart(), {
      content: { default: 'omit', text: 'body', reasoning: 'metadata' },
    });
    expect(partsOf(view).map((p) => p.selection)).toEqual(['body', 'omit', 'metadata']);
    expect(partsOf(view)[2]).not.toHaveProperty('text');
  });

  it('sends native only when asked for and nothing is withheld', () => {
    expect(contentView(turnStart(), { content: { default: 'body' } })).not.toHaveProperty('native');
    expect(
      contentView(turnStart(), { content: { default: 'metadata' }, includeNative: true }),
    ).not.toHaveProperty('native');
    const textOnly = turnStart();
    textOnly.items = [{ id: 'm', role: 'user', parts: [partsOf(turnStart())[0] as JsonObject] }];
    expect(contentView(textOnly, { content: { default: 'body' }, includeNative: true })).toHaveProperty(
      'native',
    );
  });

  it("drops the error's native as well, from events with no content slot too, but never a tool input's key", () => {
    const failedCall: JsonObject = {
      type: 'tool.after',
      tool: { name: 'Bash', origin: 'native', input: { native: 'an argument of the tool' } },
      outcome: 'error',
      error: { class: 'tool', message: 'exit status 2', native: { stderr: SECRET } },
      items: [],
    };
    const modelError: JsonObject = {
      type: 'model.error',
      error: { class: 'provider', message: 'overloaded', native: { raw: SECRET } },
    };
    for (const event of [failedCall, modelError]) {
      const hidden = contentView(event, { content: { default: 'body' } });
      expect(JSON.stringify(hidden)).not.toContain(SECRET);
      expect(hidden.error).toEqual({ ...(event.error as JsonObject), native: undefined });
      expect(event.error).toHaveProperty('native');
      const asked = contentView(event, { content: { default: 'body' }, includeNative: true });
      expect((asked.error as JsonObject).native).toEqual((event.error as JsonObject).native);
    }
    const view = contentView(failedCall, { content: { default: 'metadata' }, includeNative: true });
    expect(view.tool).toEqual(failedCall.tool);
  });

  it('projects user messages and part summaries too, and leaves the input event untouched', () => {
    const inbound: JsonObject = {
      type: 'user.message.inbound',
      message: {
        channel: 'chat',
        sender: 'u',
        messages: [
          {
            id: 'm',
            role: 'user',
            parts: [{ id: 'p', kind: 'text', mediaType: 'text/plain', selection: 'body', text: SECRET }],
          },
        ],
      },
    };
    const summary: JsonObject = {
      type: 'context.compact.after',
      summary: [{ id: 's', kind: 'text', mediaType: 'text/plain', selection: 'body', text: SECRET }],
    };
    const single: JsonObject = {
      type: 'context.compact.after',
      summary: { ...(summary.summary as JsonObject[])[0] },
    };
    expect(contentView(single, { content: { default: 'metadata' } }).summary).toEqual({
      id: 's',
      kind: 'text',
      mediaType: 'text/plain',
      selection: 'metadata',
    });
    const before = JSON.stringify([inbound, summary]);
    const views = [inbound, summary].map((e) => contentView(e, { content: { default: 'omit' } }));
    expect(JSON.stringify(views)).not.toContain('hunter2');
    expect(JSON.stringify([inbound, summary])).toBe(before);
  });
});
