import { describe, expect, it } from 'vitest';
import { checkInterceptResult } from '../../../protocol/messages.js';
import { validateRegistration } from '../../../protocol/registration.js';
import type { JsonValue } from '../../../protocol/json.js';
import type { Capabilities } from '../../../protocol/wire-types.js';
import { startBackendSet } from '../kit/backend-set.js';
import { CaseSteps } from '../kit/step-identity.js';
import { BAD_MEMBERS, EDIT_CASES, withheldEdit } from './edit-case-data.js';
import { chainBackends } from './edit-cases.js';

/** What the reference harness advertises at tool.before: deny, and modify of the input both ways. */
const ADVERTISED: Capabilities = {
  effects: ['deny', 'modify'],
  modify: { input: { replace: true, merge: true } },
};

const judge = (effects: JsonValue, capabilities = ADVERTISED) =>
  checkInterceptResult(
    { protocolVersion: 'draft', effects },
    { protocolVersion: 'draft', eventType: 'tool.before', capabilities },
  );

describe('AHP-EDIT-001 case data', () => {
  it('presents as valid only responses our validator accepts, and as rejected only ones it rejects', () => {
    for (const c of EDIT_CASES) {
      const [first, ...rest] = c.links;
      const check = judge(first?.effects ?? []);
      if (c.expect.first.outcome === 'effects') expect(check.ok, c.label).toBe(true);
      else expect(check, c.label).toMatchObject({ ok: false, failureClass: 'invalid-effects' });
      const later = c.label.includes('earlier-accepted-edit') ? rest.slice(1) : rest;
      for (const link of later) expect(judge(link.effects).ok, c.label).toBe(true);
    }
  });

  it('makes each bad member alone invalid, and the valid member beside it valid alone', () => {
    for (const bad of BAD_MEMBERS) expect(judge([bad.effect]).ok, bad.label).toBe(false);
    const atomic = EDIT_CASES.filter((c) => c.label.includes('/bad-member:'));
    expect(atomic).toHaveLength(2 * BAD_MEMBERS.length);
    for (const c of atomic) expect(judge([(c.links[0]?.effects ?? [])[0] as JsonValue]).ok).toBe(true);
  });

  it('rejects the second response of the case where an earlier edit must stay', () => {
    const kept = EDIT_CASES.find((c) => c.label.includes('earlier-accepted-edit'));
    expect(judge(kept?.links[1]?.effects ?? [])).toMatchObject({
      ok: false,
      failureClass: 'invalid-effects',
    });
  });

  it('sends an operation the request withholds as an unadvertised edit', () => {
    const replaceOnly: Capabilities = {
      effects: ['deny', 'modify'],
      modify: { input: { replace: true, merge: false } },
    };
    const edit = withheldEdit({ target: 'input', operation: 'merge' });
    expect(judge([edit]).ok).toBe(true);
    expect(judge([edit], replaceOnly)).toMatchObject({ ok: false, failureClass: 'invalid-effects' });
  });

  it('starts chains whose registration the protocol accepts, one backend per link and the observer', async () => {
    for (const c of EDIT_CASES) {
      const backends = chainBackends({ links: c.links, ...(c.observe ? { observe: true } : {}) }, 1000);
      expect(backends).toHaveLength(c.links.length + (c.observe ? 1 : 0));
      // The mocks check every scenario they are given, so a behaviour they refuse fails the start.
      const set = await startBackendSet('http', backends, new CaseSteps([['evt-1', 'call-1']]));
      try {
        const registration = set.registration();
        expect(validateRegistration(registration).ok, c.label).toBe(true);
        const modes = (registration.hooks as { subscriptions: { mode: string }[] }[]).map(
          (h) => h.subscriptions[0]?.mode,
        );
        expect(modes.filter((m) => m === 'observe')).toHaveLength(c.observe ? 1 : 0);
      } finally {
        await set.close();
      }
    }
  });
});
