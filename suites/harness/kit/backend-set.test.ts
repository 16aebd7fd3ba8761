import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { validateRegistration } from '../../../protocol/registration.js';
import { setBackendId, startBackendSet, UPLOAD_TARGET } from './backend-set.js';
import { CaseSteps } from './step-identity.js';

function intercept(callId: string, eventId = `evt-${callId}`): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: eventId,
    method: 'hooks/intercept',
    params: {
      protocolVersion: 'draft',
      event: {
        id: eventId,
        type: 'tool.before',
        call: { id: callId },
        tool: { name: 'Bash', input: {} },
      },
      capabilities: { effects: ['deny'] },
    },
  });
}

describe('startBackendSet', () => {
  it('gives each backend its own mock, registration entry and recordings, with reply times', async () => {
    const steps = new CaseSteps([['evt-c1', 'c1']]);
    const set = await startBackendSet(
      'http',
      [
        {
          subscriptions: [
            { mode: 'intercept', policy: 'fail-closed', timeoutMs: 1000, includeNative: true },
            { mode: 'observe', includeNative: false },
          ],
          replies: [{ kind: 'delay', ms: 40, then: { kind: 'respond' } }],
        },
        { subscriptions: [{ mode: 'observe' }], replies: [] },
      ],
      steps,
    );
    try {
      const registration = set.registration();
      expect(validateRegistration(registration).ok).toBe(true);
      // includeNative is written as the subscription sets it, and left out when it does not.
      const subscriptionsOf = (i: number) =>
        (registration.hooks as { subscriptions: Record<string, unknown>[] }[])[i]?.subscriptions ?? [];
      expect(subscriptionsOf(0).map((s) => s.includeNative)).toEqual([true, false]);
      expect(subscriptionsOf(1)[0]).not.toHaveProperty('includeNative');
      expect(set.ids).toEqual([setBackendId(1), setBackendId(2)]);
      const hooks = registration.hooks as { transport: { url: string } }[];
      const [first, second] = hooks.map((h) => h.transport.url);
      expect(first).not.toBe(second);

      set.begin(0);
      const reply = await fetch(first as string, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: intercept('c1'),
      });
      expect(await reply.json()).toMatchObject({ result: { effects: [] } });
      await set.waitFor(0, 0, 'hooks/intercept', 1, 1000);

      const asked = set.callAt(0, 0);
      expect(asked.requests).toHaveLength(1);
      const [timed] = asked.requests;
      expect((timed?.repliedAtWallMs ?? 0) - (timed?.arrivedAtWallMs ?? 0)).toBeGreaterThanOrEqual(39);
      expect(set.callAt(1, 0)).toEqual({ requests: [], notifications: [] });
      // Nothing to wait for returns at once, even on a backend that received nothing.
      const started = performance.now();
      await set.waitFor(1, 0, 'hooks/intercept', 0, 5000);
      expect(performance.now() - started).toBeLessThan(1000);
    } finally {
      await set.close();
    }
  });

  it('answers each step as scripted, and a request that identifies with no step as the step in progress', async () => {
    const steps = new CaseSteps([
      ['evt-a', 'call-a'],
      ['evt-b', 'call-b'],
    ]);
    const deny = { kind: 'deny' as const, reason: 'second' };
    const set = await startBackendSet(
      'http',
      [
        {
          subscriptions: [{ mode: 'intercept', policy: 'fail-closed', timeoutMs: 1000 }],
          replies: [undefined, deny],
        },
      ],
      steps,
    );
    const url = (set.registration().hooks as { transport: { url: string } }[])[0]?.transport.url as string;
    const post = async (body: string) =>
      (await (
        await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      ).json()) as { result: { effects: unknown[] } };
    try {
      set.begin(0);
      expect((await post(intercept('call-other', 'evt-own-1'))).result.effects).toEqual([]);
      set.begin(1);
      // Step 1's identity answers as step 1 even during step 2; an unidentified request as step 2.
      expect((await post(intercept('call-a', 'evt-own-2'))).result.effects).toEqual([]);
      expect((await post(intercept('call-other', 'evt-own-3'))).result.effects).toHaveLength(1);
      expect((await post(intercept('call-b'))).result.effects).toHaveLength(1);
      expect(set.callAt(0, 0).requests).toHaveLength(2);
      expect(set.callAt(0, 1).requests).toHaveLength(2);
    } finally {
      await set.close();
    }
  });

  it('sets ids, events, content and an upload endpoint of its own for a backend that uploads', async () => {
    const steps = new CaseSteps([['evt-u', 'call-u']]);
    const upload = { timeoutMs: 500, maxBytes: 1000 };
    const set = await startBackendSet(
      'http',
      [
        {
          id: 'dev.example.uploads',
          subscriptions: [{ mode: 'observe', events: ['turn.start'], content: { default: 'body' }, upload }],
          replies: [],
        },
        { subscriptions: [{ mode: 'intercept', policy: 'fail-open', timeoutMs: 300 }], replies: [] },
      ],
      steps,
    );
    try {
      const registration = set.registration();
      expect(validateRegistration(registration).ok).toBe(true);
      expect(set.ids).toEqual(['dev.example.uploads', setBackendId(2)]);
      const [uploading, plain] = registration.hooks as {
        transport: { url: string };
        subscriptions: Record<string, unknown>[];
      }[];
      const subscription = uploading?.subscriptions[0] as { upload: { endpoint: string } };
      expect(uploading?.subscriptions[0]).toMatchObject({
        events: ['turn.start'],
        mode: 'observe',
        content: { default: 'body' },
        upload: { timeoutMs: 500, maxBytes: 1000 },
      });
      expect(plain?.subscriptions[0]).toEqual({
        events: ['tool.before'],
        mode: 'intercept',
        content: { default: 'metadata' },
        timeoutMs: 300,
        failurePolicy: 'fail-open',
      });
      // The upload endpoint is a mock of its own: neither backend's transport.
      const endpoint = subscription.upload.endpoint;
      expect([uploading?.transport.url, plain?.transport.url]).not.toContain(endpoint);
      expect(new URL(endpoint).pathname + new URL(endpoint).search).toBe(UPLOAD_TARGET);
      // Badly framed (text/plain, no digest): refused with 400, the faults recorded.
      await fetch(endpoint, { method: 'POST', body: 'uploaded bytes' });
      const bytes = new Uint8Array([0, 255, 7]);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const framed = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', 'ahp-content-sha256': sha256 },
        body: bytes,
      });
      // The default answer is a receipt that does not confirm: not 201.
      expect(framed.status).toBe(200);
      const [bad, good] = set.uploads(0);
      expect(bad).toMatchObject({ status: 400, size: 14, path: UPLOAD_TARGET });
      expect(bad?.framing.length).toBeGreaterThan(0);
      expect(good).toMatchObject({ status: 200, size: 3, sha256, framing: [], receipt: { size: 3, sha256 } });
      expect(set.uploads(1)).toEqual([]);
      expect(set.callAt(0, 0)).toEqual({ requests: [], notifications: [] });
    } finally {
      await set.close();
    }
  });

  it('ends a wait for deliveries that never come once the backend has been quiet', async () => {
    const set = await startBackendSet(
      'http',
      [{ subscriptions: [{ mode: 'intercept', policy: 'fail-open', timeoutMs: 300 }], replies: [] }],
      new CaseSteps([['evt-q', 'call-q']]),
    );
    try {
      const started = performance.now();
      await set.waitFor(0, 0, 'hooks/intercept', 1, 10_000, 200);
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(190);
      expect(waited).toBeLessThan(5000);
    } finally {
      await set.close();
    }
  });
});
