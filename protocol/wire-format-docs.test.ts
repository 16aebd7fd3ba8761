// Every JSON block of docs/wire-format.md is a frame our own validators accept: a request, the
// replies that follow it (judged at that request's boundary), or a notification. The page shows
// harness authors the shapes the suite judges them by, so it cannot drift from them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { asCapabilities } from './capabilities.js';
import { EFFECT_TYPES } from './wire-types.js';
import { isObservationOnlyEvent } from './events.js';
import { isJsonObject, type JsonObject, type JsonValue } from './json.js';
import {
  validateInterceptRequest,
  validateInterceptResponse,
  validateObserveNotification,
} from './messages.js';

const PAGE = readFileSync(new URL('../docs/wire-format.md', import.meta.url), 'utf8');

/** The page's JSON blocks, in order. */
function blocks(page: string): JsonObject[] {
  return [...page.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map(
    (m) => JSON.parse(m[1] as string) as JsonObject,
  );
}

interface Judged {
  frame: 'request' | 'reply' | 'notification' | 'unknown';
  eventType?: string;
  effects?: string[];
  problems: string[];
}

/** Each block judged as the frame it is; a reply by the request before it. */
function judge(page: string): Judged[] {
  let request: JsonObject | undefined;
  return blocks(page).map((block): Judged => {
    const params = isJsonObject(block.params) ? block.params : undefined;
    const event = params && isJsonObject(params.event) ? params.event : undefined;
    const eventType = typeof event?.type === 'string' ? event.type : undefined;
    const show = (vs: Array<{ path: string; message: string }>) => vs.map((v) => `${v.path} ${v.message}`);
    if (block.method === 'hooks/intercept') {
      request = block;
      return {
        frame: 'request',
        ...(eventType ? { eventType } : {}),
        problems: show(validateInterceptRequest(block)),
      };
    }
    if (block.method === 'hooks/observe')
      return {
        frame: 'notification',
        ...(eventType ? { eventType } : {}),
        problems: show(validateObserveNotification(block)),
      };
    if ('result' in block || 'error' in block) {
      if (request === undefined) return { frame: 'reply', problems: ['a reply with no request before it'] };
      const asked = request.params as JsonObject;
      const askedEvent = asked.event as JsonObject;
      const result = isJsonObject(block.result) ? block.result : {};
      const effects = Array.isArray(result.effects)
        ? result.effects.map((e: JsonValue) => (isJsonObject(e) ? String(e.type) : ''))
        : [];
      return {
        frame: 'reply',
        effects,
        problems: show(
          validateInterceptResponse(block, {
            requestId: request.id as string,
            eventType: askedEvent.type as string,
            capabilities: asCapabilities(asked.capabilities as JsonObject),
            event: askedEvent,
          }),
        ),
      };
    }
    return { frame: 'unknown', problems: ['neither a request, a reply nor a notification'] };
  });
}

describe('the examples of docs/wire-format.md', () => {
  const judged = judge(PAGE);

  it('each validate as the frame they are', () => {
    expect(judged.filter((j) => j.problems.length > 0)).toEqual([]);
  });

  it('show each event family, a notification-only event, and every effect type', () => {
    const types = judged.flatMap((j) => (j.eventType ? [j.eventType] : []));
    for (const type of ['tool.before', 'tool.after']) expect(types, type).toContain(type);
    for (const family of ['session.', 'turn.', 'model.', 'context.compact.'])
      expect(
        types.some((t) => t.startsWith(family)),
        family,
      ).toBe(true);
    expect(types.some(isObservationOnlyEvent)).toBe(true);
    const effects = new Set(judged.flatMap((j) => j.effects ?? []));
    for (const type of EFFECT_TYPES) expect(effects, type).toContain(type);
    expect(judged.some((j) => j.frame === 'reply' && j.effects?.length === 0)).toBe(true);
  });

  it('a broken example does not: a missing source, a tool.callId, an unoffered effect', () => {
    const broken = PAGE.replace(
      '"source": "urn:uuid:3f2b8c1e-7d4a-4b7e-9c61-2a5d0e8f4b10",\n      "type": "tool.after"',
      '"type": "tool.after"',
    )
      .replace(
        '"call": { "id": "call-1" },\n      "tool": { "name": "Bash"',
        '"tool": { "callId": "call-1", "name": "Bash"',
      )
      .replace(
        '"effects": [{ "type": "deny", "reason": "Prompts',
        '"effects": [{ "type": "allow" }, { "type": "deny", "reason": "Prompts',
      );
    expect(broken).not.toBe(PAGE);
    const failing = judge(broken).filter((j) => j.problems.length > 0);
    expect(failing.map((j) => [j.frame, j.eventType ?? j.effects?.join(',')])).toEqual([
      ['request', 'tool.before'],
      ['notification', 'tool.after'],
      ['reply', 'allow,deny'],
    ]);
  });
});

describe('docs/wire-format.md', () => {
  it('is linked from the README and the harness authors page', () => {
    const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
    expect(read('../README.md')).toContain('](docs/wire-format.md)');
    expect(read('../docs/harness-authors.md')).toContain('](wire-format.md)');
  });

  it('links each draft page it cites at the draft repository on GitHub', () => {
    const cited = [...PAGE.matchAll(/\(`(spec\/draft\/[^`#]+)`\)/g)].map((m) => m[1] as string);
    expect(cited.length).toBeGreaterThan(0);
    for (const path of cited)
      expect(PAGE, path).toContain(
        `(https://github.com/agenthooksprotocol/agent-hooks-protocol/blob/main/${path})`,
      );
  });
});
