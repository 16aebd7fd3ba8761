import { INTERCEPTABLE_EVENTS, isEventWildcard } from '../protocol/events.js';
import { childPath, type Violation } from '../protocol/json.js';
import type { Registration } from '../protocol/registration.js';

/** The events this harness can raise: every interceptable one (observation-only events never occur here). */
const RAISED_EVENTS: ReadonlySet<string> = new Set(INTERCEPTABLE_EVENTS);

/**
 * What a valid registration asks of this harness that it cannot serve, each at its path: an exact
 * event it never raises (the subscription could never be served), and a managed scope, which it
 * does not enforce (capability-auth.md, "Registration": unsupported mandatory policy fails rather
 * than silently degrading). Wildcards select only what the harness raises, so they never fail.
 */
export function unsupportedByHost(registration: Registration): Violation[] {
  const problems: Violation[] = [];
  registration.hooks.forEach((backend, b) => {
    backend.subscriptions.forEach((subscription, s) => {
      const path = childPath(childPath(childPath('$.hooks', b), 'subscriptions'), s);
      subscription.events.forEach((event, e) => {
        if (isEventWildcard(event) || RAISED_EVENTS.has(event)) return;
        problems.push({
          path: childPath(childPath(path, 'events'), e),
          message: `this harness never raises ${event}, so the subscription could never be served; remove it from events`,
          requirement: 'AHP-REG-002',
        });
      });
      if (subscription.scope === 'managed') {
        problems.push({
          path: childPath(path, 'scope'),
          message:
            'this harness does not enforce managed scope, so it cannot keep the subscription mandatory; remove scope or use a harness that enforces it',
          requirement: 'AHP-REG-001',
        });
      }
    });
  });
  return problems;
}
