import { describe, expect, it } from 'vitest';
import { INTERCEPTABLE_EVENTS, type InterceptableEvent } from '../../../protocol/events.js';
import { isJsonObject, type JsonValue } from '../../../protocol/json.js';
import { validateInterceptResponse } from '../../../protocol/messages.js';
import { PROTOCOL_VERSION } from '../../../protocol/wire-types.js';
import type { Behaviour } from '../../../mock-backend/index.js';
import { replyText } from '../../../mock-backend/engine-replies.js';
import type { InitializeResult } from '../../driver/index.js';
import type { HarnessCase } from '../kit/case-model.js';
import type { HarnessFixture } from '../kit/fixture.js';
import { unmetNeeds } from '../kit/features.js';
import { boundaryCanDeny, LINKED_PAIRS, OTHER_EVENTS, perEventCases } from './per-event-cases.js';

const V11: InitializeResult = {
  implementation: { name: 'x', version: '1' },
  protocolVersions: ['draft'],
  bindings: ['stdio', 'http'],
  features: { stdioPersistent: true, http: true, retries: true, events: [...INTERCEPTABLE_EVENTS] },
};
const V1: InitializeResult = { ...V11, features: { stdioPersistent: true, http: true, retries: true } };

const choices = perEventCases({} as HarnessFixture);
const built = choices.map((c) => c.build('stdio-persistent', V11));

/** The behaviours of a case that answer with a result the harness must accept as valid. */
function validReplies(b: Behaviour): Behaviour[] {
  if (b.kind === 'respond' || b.kind === 'deny') return [b];
  if (b.kind === 'sequence') return b.then ? validReplies(b.then) : [];
  return [];
}

/** True for a case one of whose steps is raised as the child of an earlier one (lineage). */
function linksSteps(c: HarnessCase): boolean {
  return (c.then ?? []).some((step) => step.parent !== undefined);
}

function eventOf(c: HarnessCase): InterceptableEvent {
  if (c.event === undefined) throw new Error(`${c.name} raises tool.before`);
  return c.event;
}

describe('the per-event family', () => {
  it('covers every interceptable event but tool.before, each on every call of its cases', () => {
    expect(OTHER_EVENTS).not.toContain('tool.before');
    for (const c of built.filter((b) => !linksSteps(b))) {
      expect(c.name).toContain(`/event:${eventOf(c)}/`);
      for (const step of c.then ?? []) expect(step.event).toBe(c.event);
    }
    const names = built.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const event of OTHER_EVENTS) {
      const ids = built.filter((c) => c.event === event).map((c) => `${c.requirements[0]}/${c.policy}`);
      expect(ids).toContain('AHP-FAIL-001/fail-open');
      expect(ids).toContain('AHP-CORE-004/fail-open');
      expect(ids).toContain(`AHP-FAIL-002/${boundaryCanDeny(event) ? 'fail-closed' : 'fail-open'}`);
      // Fail-closed is judged only where the boundary can deny (the draft names no other outcome).
      expect(ids.includes('AHP-FAIL-001/fail-closed')).toBe(boundaryCanDeny(event));
    }
  });

  it('raises each linked pair as parent then child, the child naming the parent, under the name of the child', () => {
    const linked = built.filter(linksSteps);
    expect(linked.map((c) => [c.event, c.then?.[0]?.event])).toEqual(
      LINKED_PAIRS.map((p) => [p.parent, p.child]),
    );
    for (const c of linked) {
      expect(c.then?.[0]?.parent).toBe(0);
      expect(c.name).toContain(`/event:${String(c.then?.[0]?.event)}/`);
    }
  });

  it('answers only with results our validator accepts at the event, advertising what it can', () => {
    for (const c of built) {
      const event = eventOf(c);
      const capabilities = { effects: boundaryCanDeny(event) ? ['deny'] : [] };
      for (const step of [c, ...(c.then ?? [])]) {
        for (const reply of validReplies(step.behaviour)) {
          const text = replyText(
            { transport: 'stdio', replyId: 'evt-1', protocolVersion: PROTOCOL_VERSION },
            reply as Extract<Behaviour, { kind: 'respond' | 'deny' }>,
          );
          const frame = JSON.parse(text) as JsonValue;
          expect(isJsonObject(frame)).toBe(true);
          const violations = validateInterceptResponse(frame, {
            eventType: event,
            capabilities,
            requestId: 'evt-1',
          });
          expect(violations, `${c.name}: ${text}`).toEqual([]);
        }
      }
    }
  });

  it('would see a deny at a boundary without deny as invalid (the check above can fail)', () => {
    const text = replyText(
      { transport: 'stdio', replyId: 'evt-1', protocolVersion: PROTOCOL_VERSION },
      { kind: 'deny', reason: 'no' },
    );
    const frame = JSON.parse(text) as JsonValue;
    const context = { eventType: 'tool.after', capabilities: { effects: [] }, requestId: 'evt-1' };
    expect(validateInterceptResponse(frame, context)).not.toEqual([]);
  });

  it('shares one subscription of every announced event, so a lane keeps its harness', () => {
    const subscriptions = new Set(built.map((c) => JSON.stringify(c.subscription)));
    expect(subscriptions.size).toBe(1);
    const events = (built[0]?.subscription?.set?.events ?? []) as string[];
    expect([...events].sort()).toEqual([...OTHER_EVENTS].sort());
  });

  it('is untested for a driver that does not announce features.events, with that reason', () => {
    for (const c of choices) {
      expect(unmetNeeds(c.needs ?? {}, V1)).toMatch(/^the driver does not announce features\.events with /);
      expect(unmetNeeds(c.needs ?? {}, V11)).toBeUndefined();
    }
  });
});
