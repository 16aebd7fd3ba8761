/**
 * Declares one case per scenario of the loaded interop files, named `interop/<set>/<id>`:
 * `scenarios.json` through run.ts, the registration scenarios of `catalogue-scenarios.json`
 * through registration.ts, and every other scenario as a case that ends `untested` with the
 * reason it does not apply to a harness driven through the driver protocol (not-run.ts).
 */
import { driverCase } from '../harness/kit/define.js';
import type { HarnessFixture } from '../harness/kit/fixture.js';
import type { Needs } from '../harness/kit/features.js';
import type { KnownFeature } from '../driver/index.js';
import { conformanceCase } from '../common/case.js';
import { HARNESS_RULES, type RuleKey } from '../harness/kit/rules.js';
import { chainPlan, runChain } from './chain.js';
import { lifecyclePlan, runLifecycle } from './lifecycle.js';
import { notificationPlan, runNotification } from './notification.js';
import { runStaleReply, staleReplyPlan } from './stale-reply.js';
import type { CatalogueScenario, LifecycleScenario } from './format.js';
import type { InteropSet } from './load.js';
import { notRunReason } from './not-run.js';
import { registrationPlan, runRegistration } from './registration.js';
import { runScenario } from './run.js';
import { interopCaseName, translateScenario } from './translate.js';

const TRANSPORTS = ['http', 'stdio-persistent', 'stdio-per_event'];

/** The requirement a lifecycle scenario counts for: its rule's. */
function lifecycleRequirement(rule: RuleKey): string {
  return HARNESS_RULES[rule].requirement;
}

/** Declares the cases of every loaded set. */
export function declareInteropCases(fixture: HarnessFixture, sets: readonly InteropSet[]): void {
  for (const loaded of sets) {
    for (const scenario of loaded.scenarios) {
      const name = interopCaseName(loaded.set, scenario.id);
      if (loaded.set === 'scenarios') {
        const plan = translateScenario(scenario as Parameters<typeof translateScenario>[0], loaded.set);
        const features: KnownFeature[] = plan.hostPermission ? ['hostPermission'] : [];
        const needs: Needs = {
          transport: 'any',
          features,
          ...(plan.eventType === 'tool.before' ? {} : { event: plan.eventType }),
        };
        driverCase(
          fixture,
          { name, requirements: plan.requirements, transports: TRANSPORTS },
          needs,
          (ctx, state) => runScenario(state, plan, ctx),
        );
        continue;
      }
      const chain =
        loaded.set === 'catalogue-scenarios' ? undefined : chainPlan(scenario as LifecycleScenario);
      if (chain !== undefined) {
        const features: KnownFeature[] = chain.interrupt ? ['cancel'] : [];
        driverCase(
          fixture,
          { name, requirements: ['AHP-COMP-001', 'AHP-REG-002'], transports: TRANSPORTS },
          { transport: 'any', features },
          (ctx, state) => runChain(state, chain, ctx),
        );
        continue;
      }
      const lifecycle =
        loaded.set === 'lifecycle-scenarios' ? lifecyclePlan(scenario as LifecycleScenario) : undefined;
      if (lifecycle !== undefined) {
        const features: KnownFeature[] = lifecycle.shape === 'after-cancel' ? ['cancel'] : [];
        driverCase(
          fixture,
          { name, requirements: [lifecycleRequirement(lifecycle.rule)], transports: TRANSPORTS },
          { transport: 'any', features },
          (ctx, state) => runLifecycle(state, lifecycle, ctx),
        );
        continue;
      }
      const stale =
        loaded.set === 'lifecycle-scenarios' ? staleReplyPlan(scenario as LifecycleScenario) : undefined;
      if (stale !== undefined) {
        driverCase(
          fixture,
          { name, requirements: ['AHP-STDIO-001'], transports: ['stdio-persistent'] },
          { transport: 'any' },
          (ctx, state) => runStaleReply(state, stale, ctx),
        );
        continue;
      }
      const notification =
        loaded.set === 'catalogue-scenarios' ? notificationPlan(scenario as CatalogueScenario) : undefined;
      if (notification !== undefined) {
        driverCase(
          fixture,
          { name, requirements: ['AHP-RPC-002'], transports: TRANSPORTS },
          {
            transport: 'any',
            features: ['observe'],
            ...(notification.eventType === 'tool.before' ? {} : { event: notification.eventType }),
          },
          (ctx, state) => runNotification(state, notification, ctx),
        );
        continue;
      }
      const registration =
        loaded.set === 'catalogue-scenarios' ? registrationPlan(scenario as CatalogueScenario) : undefined;
      if (registration !== undefined) {
        driverCase(
          fixture,
          { name, requirements: registration.requirements, transports: ['none'] },
          {},
          (ctx, state) => runRegistration(state, registration, ctx),
        );
        continue;
      }
      const reason = notRunReason(loaded.set, scenario);
      conformanceCase({ name, requirements: [reason.requirement], transports: ['none'] }, (ctx) =>
        ctx.untested(reason.why),
      );
    }
  }
}
