import { describe, expect, it } from 'vitest';
import { ManualClock } from '../protocol/clock.js';
import type { JsonObject, JsonValue } from '../protocol/json.js';
import { FakeTransport } from './fake-transport.js';
import { createHarnessWith } from './harness.js';
import { advanceBy } from './test-clocks.js';
import { optionsFor, steps } from './test-support.js';

const text = (id: string, t: string) => ({
  id,
  kind: 'text',
  mediaType: 'text/plain',
  selection: 'body',
  text: t,
});
const msg = (id: string, ...parts: JsonValue[]) => ({ id, role: 'user', parts });
const original = [msg('m1', text('p1', 'list the files'))];
const added = [msg('m2', text('p2', 'and their sizes'))];

/** Two body interceptors (the first with `firstContent`) and a body observer, all on turn.start. */
function chain(first: ReturnType<typeof steps.none>, firstContent: JsonObject = { default: 'body' }) {
  const clock = new ManualClock();
  const a = new FakeTransport(clock, first);
  const b = new FakeTransport(clock, steps.none());
  const o = new FakeTransport(clock, steps.none());
  const sub = (content: JsonObject) => ({
    events: ['turn.start'],
    mode: 'intercept',
    timeoutMs: 100,
    failurePolicy: 'fail-open',
    content,
  });
  const backend = (id: string, subscription: JsonObject) => ({
    id,
    transport: { type: 'stdio', command: 'unused-in-tests', lifecycle: 'persistent' },
    subscriptions: [subscription],
  });
  const registration = {
    protocolVersion: 'draft',
    hooks: [
      backend('com.example.a', sub(firstContent)),
      backend('com.example.b', sub({ default: 'body' })),
      backend('com.example.o', { events: ['turn.start'], mode: 'observe', content: { default: 'body' } }),
    ],
  };
  const transports = { 'com.example.a': a, 'com.example.b': b, 'com.example.o': o };
  const extra = { advertisedEffects: ['deny', 'modify'] as never };
  const h = createHarnessWith(optionsFor(clock, registration, transports, extra), undefined);
  return { clock, a, b, o, h };
}

async function raise(c: ReturnType<typeof chain>) {
  const pending = c.h.invoke({
    type: 'turn.start',
    fields: { session: { id: 's' }, turn: { id: 't' }, trigger: 'user', items: original },
  });
  await advanceBy(c.clock, 0);
  const r = await pending;
  const params = (t: FakeTransport) => JSON.parse(t.deliveries[0]?.frame ?? '{}').params;
  return { r, a: params(c.a), b: params(c.b), o: params(c.o) };
}

describe('content edits through a chain', () => {
  it('passes an accepted merge on to the next interceptor and the observer', async () => {
    const c = chain(steps.effects([{ type: 'modify', target: 'prompt', operation: 'merge', value: added }]));
    const { r, a, b, o } = await raise(c);
    expect(a.capabilities.modify).toEqual({ prompt: { replace: true, merge: true } });
    expect(b.event.items).toEqual([...original, ...added]);
    expect(o.event.items).toEqual([...original, ...added]);
    expect(r.effectiveEvent).toMatchObject({ items: [...original, ...added] });
  });

  it('offers no replace to a view that withholds the text, and rejects one sent anyway (fail-open)', async () => {
    const c = chain(
      steps.effects([{ type: 'modify', target: 'prompt', operation: 'replace', value: added }]),
      {
        default: 'metadata',
      },
    );
    const { a, b, o } = await raise(c);
    expect(a.capabilities.modify).toEqual({ prompt: { replace: false, merge: true } });
    expect(b.capabilities.modify).toEqual({ prompt: { replace: true, merge: true } });
    expect(b.event.items).toEqual(original);
    expect(o.event.items).toEqual(original);
  });

  it('rejects the whole response when one edit is bad: an attachment it was never given', async () => {
    const image = {
      id: 'img',
      kind: 'attachment',
      mediaType: 'image/png',
      selection: 'body',
      body: { ref: 'r' },
    };
    const c = chain(
      steps.effects([
        { type: 'modify', target: 'prompt', operation: 'merge', value: added },
        { type: 'modify', target: 'prompt', operation: 'merge', value: [msg('m3', image)] },
      ]),
    );
    const { r, b } = await raise(c);
    expect(b.event.items).toEqual(original);
    expect(r.audit[0]).toMatchObject({ outcome: 'operational-failure', failureClass: 'invalid-effects' });
  });
});
