import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../../protocol/json.js';
import {
  gapPartIds,
  partListProblems,
  contentViolations as contentViolationsFindings,
  leakProblems as leakProblemsFindings,
  messageListProblems as messageListProblemsFindings,
} from './content-checks.js';
import { messagesOf as messages } from '../kit/rules.js';

/** The checks' findings as their messages (the rules are asserted where they matter). */
const contentViolations = (...args: Parameters<typeof contentViolationsFindings>) =>
  messages(contentViolationsFindings(...args));
const leakProblems = (...args: Parameters<typeof leakProblemsFindings>) =>
  messages(leakProblemsFindings(...args));
const messageListProblems = (...args: Parameters<typeof messageListProblemsFindings>) =>
  messages(messageListProblemsFindings(...args));
import { givenConversation, marker, partJson, placeContent, type GivenPart } from './content-samples.js';

const NONCE = 'n0nce';
const given = givenConversation(NONCE, { structured: true });

/** The wire list a correct harness sends for `view` (attachments under body as gaps). */
function wireList(view: 'body' | 'metadata' | 'omit'): JsonObject[] {
  return given.map((m) => ({
    id: m.id,
    role: m.role,
    parts: m.parts.map((p) => {
      const json = partJson(p);
      json.selection = view;
      if (view !== 'body') {
        delete json.text;
        delete json.body;
      } else if (p.kind === 'attachment') {
        delete json.body;
        json.gap = { reason: 'upload-unavailable' };
      }
      return json;
    }),
  }));
}

function partAt(list: JsonObject[], m: number, p: number): JsonObject {
  return ((list[m] as JsonObject).parts as JsonObject[])[p] as JsonObject;
}

describe('content checks', () => {
  it('find nothing in the views a correct harness sends', () => {
    for (const view of ['body', 'metadata', 'omit'] as const) {
      expect(messageListProblems(given, wireList(view), () => [view], '$')).toEqual([]);
    }
    const payload: JsonObject = { turn: { id: 't' }, trigger: 'user' };
    placeContent('turn.start', payload, given);
    const event = { id: 'e', source: 'urn:x', type: 'turn.start', time: '2026-09-15T12:00:00Z', ...payload };
    expect(contentViolations(event, ['AHP-CONTENT-001', 'AHP-CONTENT-002'])).toEqual([]);
  });

  it('report parts out of the given order, a changed role and text that is not inline', () => {
    const swapped = wireList('body');
    const parts = (swapped[1] as JsonObject).parts as JsonValue[];
    parts.reverse();
    expect(messageListProblems(given, swapped, () => ['body'], '$')[0]).toMatch(/holds parts/);
    const renamed = wireList('body');
    (renamed[2] as JsonObject).role = 'model';
    expect(messageListProblems(given, renamed, () => ['body'], '$')[0]).toMatch(/role "model"/);
    const uploaded = wireList('body');
    const text = partAt(uploaded, 0, 0);
    delete text.text;
    text.body = { ref: 'r' };
    expect(messageListProblems(given, uploaded, () => ['body'], '$')[0]).toMatch(/inline/);
  });

  it('report a reasoning part that lost its category, and no other category left out', () => {
    const dropped = (id: string) => {
      const wire = wireList('body');
      for (const part of wire.flatMap((m) => m.parts as JsonObject[])) {
        if (part.id === id) delete part.category;
      }
      return messageListProblems(given, wire, () => ['body'], '$');
    };
    // The draft asks producers to preserve reasoning only; an unknown category selects by the default.
    expect(dropped('assistant-3')).toEqual([]);
    expect(dropped('assistant-1')).toEqual([
      expect.stringMatching(/assistant-1.*stays category "reasoning"/),
    ]);
  });

  it('report structured data turned into a JSON part', () => {
    const wire = wireList('body');
    const structured = partAt(wire, 1, 1);
    structured.kind = 'json';
    structured.mediaType = 'application/json';
    const problems = messageListProblems(given, wire, () => ['body'], '$');
    expect(problems.join('\n')).toMatch(/there is no JSON part/);
    const rules = messageListProblemsFindings(given, wire, () => ['body'], '$').map((f) => f.rule);
    expect(new Set(rules)).toEqual(new Set(['content.canonical']));
    const event = { id: 'e', source: 'urn:x', type: 'turn.start', time: 't', items: wire };
    expect(contentViolations(event, ['AHP-CONTENT-001'])).not.toEqual([]);
  });

  it('report a view other than the selected one, and a withheld view carrying text', () => {
    const wire = wireList('body');
    const views = messageListProblemsFindings(given, wire, () => ['metadata'], '$');
    expect(views.some((f) => f.rule === 'content.selection')).toBe(true);
    expect(messageListProblems(given, wire, () => ['metadata'], '$').join('\n')).toMatch(
      /"body" view; the subscription selects metadata[\s\S]*metadata view carrying text/,
    );
  });

  it('find withheld content anywhere in the frame, and say where', () => {
    const parts: GivenPart[] = given.flatMap((m) => m.parts);
    const frame = JSON.stringify({
      params: { event: { items: wireList('metadata'), native: { prompt: parts[0]?.text } } },
    });
    const leaks = leakProblems(frame, NONCE, parts, () => 'metadata');
    expect(leaks).toHaveLength(1);
    expect(leaks[0]).toMatch(/system-1.*\$\.params\.event\.native\.prompt/);
    expect(leakProblems(JSON.stringify(wireList('omit')), NONCE, parts, () => 'omit')).toEqual([]);
    expect(frame).toContain(marker(NONCE, 'system-1'));
  });

  it('find the gaps of a slot, in messages and bare parts', () => {
    const gap = { reason: 'upload-unavailable' };
    const slot = [
      {
        id: 'm',
        role: 'user',
        parts: [
          { id: 'a', gap },
          { id: 'b', text: 'x' },
        ],
      },
      { id: 'c', kind: 'attachment', gap },
    ];
    expect(gapPartIds(slot)).toEqual(['a', 'c']);
    expect(gapPartIds(undefined)).toEqual([]);
  });

  it('want a body view with a gap for a text the host has no text of', () => {
    const lacking = givenConversation(NONCE, { structured: false, hostWithheld: true })
      .flatMap((m) => m.parts)
      .filter((p) => p.id === 'user-7');
    expect(partJson(lacking[0] as GivenPart)).toMatchObject({ selection: 'metadata' });
    const part = { id: 'user-7', kind: 'text', mediaType: 'text/plain', selection: 'body' };
    expect(
      partListProblems(lacking, [{ ...part, gap: { reason: 'unavailable' } }], () => ['body'], '$'),
    ).toEqual([]);
    expect(messages(partListProblems(lacking, [part], () => ['body'], '$'))).toEqual([
      expect.stringContaining('its body view is selection body with a gap'),
    ]);
  });
});
