import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../protocol/json.js';
import { CONTENT_TARGETS, readSlot, writeSlot, type ContentTarget } from '../protocol/content-targets.js';
import { applyListEdit, viewHidesContent } from './content-edits.js';

const text = (id: string, t: string) => ({
  id,
  kind: 'text',
  mediaType: 'text/plain',
  selection: 'body',
  text: t,
});
const msg = (id: string, ...parts: JsonValue[]) => ({ id, role: 'user', parts });
const prompt = CONTENT_TARGETS['turn.start'] as ContentTarget;
const summary = CONTENT_TARGETS['context.compact.after'] as ContentTarget;
const hostImage = {
  id: 'img',
  kind: 'attachment',
  mediaType: 'image/png',
  selection: 'body',
  body: { ref: 'host-ref' },
};
const seenImage = { ...hostImage, body: { ref: 'receiver-ref' } };

describe('content slots', () => {
  it('reads and writes items, message.messages and top-level part lists without changing the event', () => {
    const event = { type: 'user.message.inbound', message: { channel: 'chat', messages: [msg('a')] } };
    const slot = (CONTENT_TARGETS['user.message.inbound'] as ContentTarget).slot;
    expect(readSlot(event, slot)).toEqual([msg('a')]);
    const written = writeSlot(event, slot, [msg('b')]);
    expect(written).toEqual({
      type: 'user.message.inbound',
      message: { channel: 'chat', messages: [msg('b')] },
    });
    expect(event.message.messages).toEqual([msg('a')]);
    expect(readSlot({ summary: [text('s', 'x')] }, 'summary')).toEqual([text('s', 'x')]);
    expect(readSlot({}, 'instructions')).toEqual([]);
  });
});

describe('applyListEdit', () => {
  const current = [msg('a', text('a1', 'one'))];

  it('replace swaps the whole list; merge appends in order and keeps duplicates', () => {
    const value = [msg('b', text('b1', 'two')), msg('b', text('b1', 'two'))];
    expect(applyListEdit(prompt, { current, view: current }, 'replace', value)).toEqual({
      ok: true,
      list: value,
    });
    expect(applyListEdit(prompt, { current, view: current }, 'merge', value)).toEqual({
      ok: true,
      list: [...current, ...value],
    });
    const parts = [text('s1', 'x')];
    expect(applyListEdit(summary, { current: parts, view: parts }, 'merge', [text('s1', 'x')])).toEqual({
      ok: true,
      list: [text('s1', 'x'), text('s1', 'x')],
    });
  });

  it('refuses a whole-list replace when the view withholds text or holds a gap, and still merges', () => {
    const view = [msg('a', { id: 'a1', kind: 'text', mediaType: 'text/plain', selection: 'metadata' })];
    expect(viewHidesContent(view, 'messages')).toBe(true);
    expect(viewHidesContent(current, 'messages')).toBe(false);
    expect(applyListEdit(prompt, { current, view }, 'replace', [msg('b')])).toMatchObject({ ok: false });
    expect(applyListEdit(prompt, { current, view }, 'merge', [msg('b')])).toEqual({
      ok: true,
      list: [...current, msg('b')],
    });
  });

  it('keeps an attachment passed back unchanged as the host part, and refuses an edited or unknown one', () => {
    const host = [msg('a', text('a1', 'one'), hostImage)];
    const view = [msg('a', text('a1', 'one'), seenImage)];
    const kept = applyListEdit(prompt, { current: host, view }, 'replace', [
      msg('z', seenImage, text('a1', 'one')),
    ]);
    expect(kept).toEqual({ ok: true, list: [msg('z', hostImage, text('a1', 'one'))] });
    for (const edited of [
      { ...seenImage, body: { ref: 'other-ref' } },
      { ...seenImage, mediaType: 'image/jpeg' },
      { ...seenImage, id: 'new-image' },
    ]) {
      expect(applyListEdit(prompt, { current: host, view }, 'merge', [msg('z', edited)])).toMatchObject({
        ok: false,
      });
    }
    // An attachment the view showed only as a gap was never offered as a reference.
    const gapView = [
      msg('a', text('a1', 'one'), {
        id: 'img',
        kind: 'attachment',
        mediaType: 'image/png',
        selection: 'body',
        gap: { reason: 'x' },
      }),
    ];
    expect(
      applyListEdit(prompt, { current: host, view: gapView as JsonValue[] }, 'merge', [msg('z', hostImage)]),
    ).toMatchObject({ ok: false });
  });

  it('refuses any attachment in a text-part list', () => {
    expect(applyListEdit(summary, { current: [], view: [] }, 'merge', [seenImage])).toMatchObject({
      ok: false,
    });
  });
});
