import { eventMatches } from '../protocol/events.js';
import type {
  BackendRegistration,
  InterceptSubscription,
  ObserveSubscription,
  Registration,
} from '../protocol/registration.js';
import type { SubscriptionRef } from './audit.js';

/** One subscription that an event is delivered through, with where it sits in the registration. */
export interface Planned<S> {
  ref: SubscriptionRef;
  backend: BackendRegistration;
  subscription: S;
}

/** The deliveries an event gets: interceptors in registration order, then observers. */
export interface DispatchPlan {
  intercepts: Planned<InterceptSubscription>[];
  observers: Planned<ObserveSubscription>[];
}

/**
 * Selects the subscriptions whose events match `eventType` (exact, `family.*` or `*`), split by
 * mode. Order is `hooks` order, then subscription order inside a backend; tracking is per
 * subscription, so one backend may appear several times and nothing is deduplicated.
 */
export function planDispatch(registration: Registration, eventType: string): DispatchPlan {
  const plan: DispatchPlan = { intercepts: [], observers: [] };
  registration.hooks.forEach((backend, hookIndex) => {
    backend.subscriptions.forEach((subscription, subscriptionIndex) => {
      if (!subscription.events.some((pattern) => eventMatches(pattern, eventType))) return;
      const ref: SubscriptionRef = { backendId: backend.id, hookIndex, subscriptionIndex };
      if (subscription.id !== undefined) ref.subscriptionId = subscription.id;
      if (subscription.mode === 'intercept') plan.intercepts.push({ ref, backend, subscription });
      else plan.observers.push({ ref, backend, subscription });
    });
  });
  return plan;
}
