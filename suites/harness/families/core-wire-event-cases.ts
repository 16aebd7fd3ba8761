/**
 * The event the harness puts on the wire, validated with the protocol's own validator
 * (`validateInterceptRequest`), one requirement per case so that a defect shows under its ID:
 * AHP-TB-001 the tool.before event (common envelope, session, closed `call` and `tool`, no
 * after-the-fact fields), AHP-CAP-002 `capabilities.effects` present with `deny` at tool.before,
 * AHP-EXT-001 reverse-DNS extension keys, plus unknown response extensions that change nothing.
 * AHP-CORE-004 without retries: the kit's wire checks of every call's identities (the JSON-RPC id
 * is the event id, the reported event id and attempts are the wire's) are judged by that ID's
 * cases only, so a harness that does not retry is judged on them here, on every transport.
 * A driver protocol v1 harness can raise only tool.before, so that is the event judged here.
 */
import { bytesText } from '../kit/wire-records.js';
import { validateInterceptRequest } from '../../../protocol/messages.js';
import type { JsonValue } from '../../../protocol/json.js';
import type { Finding } from '../../common/finding.js';
import type { CaseCheck, HarnessCase } from '../kit/case-model.js';
import { finding, type RuleKey } from '../kit/rules.js';
import { HARNESS_TRANSPORTS } from '../kit/timing.js';
import { EXPLICIT_DENY_REASON } from './fail-matrix.js';

/**
 * The violations of each intercept request of the call that carry `requirement` (the validator
 * tags each violation with the requirement it breaks), as findings of `rule`.
 */
export function wireEventCheck(name: string, requirement: string, rule: RuleKey): CaseCheck {
  return {
    name,
    async run(run, context) {
      await context.waitForFrames(run.index, 'hooks/intercept', 1);
      const requests = context.recordsNow(run.index).requests;
      if (requests.length === 0) {
        return [
          finding('delivery.request-sent', 'no hooks/intercept request for this call reached the mock'),
        ];
      }
      const problems: Finding[] = [];
      for (const frame of requests) {
        let message: JsonValue;
        try {
          message = JSON.parse(bytesText(frame.bytes)) as JsonValue;
        } catch {
          problems.push(
            finding('rpc.envelope', `request ${frame.delivery} is not JSON`, { way: 'not-json' }),
          );
          continue;
        }
        for (const v of validateInterceptRequest(message)) {
          if (v.requirement === requirement) {
            problems.push(
              finding(rule, `request ${frame.delivery}: ${v.path} ${v.message} (${v.requirement})`),
            );
          }
        }
      }
      return problems;
    },
  };
}

/**
 * tool.before's own rules are tagged TB-001; the common envelope's (ids, session, timestamps) are
 * the event's required common fields, which AHP-TB-001 names too.
 */
const TOOL_BEFORE_VALID = wireEventCheck(
  'tool.before event valid on the wire',
  'AHP-TB-001',
  'event.tool-before',
);
const CAPABILITIES_VALID = wireEventCheck(
  'capabilities.effects with deny',
  'AHP-CAP-002',
  'event.capabilities',
);
const EXTENSION_KEYS_VALID = wireEventCheck(
  'extension keys reverse-DNS',
  'AHP-EXT-001',
  'event.extension-keys',
);

/** A result extension no harness knows: it must change nothing. */
const UNKNOWN_EXTENSIONS = { 'dev.example.unknown-feature': { mode: 'strict', level: 3 } };

/** One case per requirement and transport; each call answers normally. */
export function wireEventCases(): HarnessCase[] {
  return HARNESS_TRANSPORTS.flatMap((transport): HarnessCase[] => [
    {
      name: `AHP-CORE-004/transport:${transport}/policy:fail-closed/each-request-carries-its-event-id-as-json-rpc-id`,
      requirements: ['AHP-CORE-004'],
      transport,
      policy: 'fail-closed',
      label: 'empty-effects',
      behaviour: { kind: 'respond' },
      then: [{ label: 'explicit-deny', behaviour: { kind: 'deny', reason: EXPLICIT_DENY_REASON } }],
    },
    {
      name: `AHP-TB-001/transport:${transport}/tool-before-event-valid-on-the-wire`,
      requirements: ['AHP-TB-001'],
      transport,
      policy: 'fail-closed',
      label: 'empty-effects',
      behaviour: { kind: 'respond' },
      checks: [TOOL_BEFORE_VALID],
    },
    {
      name: `AHP-CAP-002/transport:${transport}/capabilities-effects-advertise-deny`,
      requirements: ['AHP-CAP-002'],
      transport,
      policy: 'fail-closed',
      label: 'empty-effects',
      behaviour: { kind: 'respond' },
      checks: [CAPABILITIES_VALID],
    },
    {
      name: `AHP-EXT-001/transport:${transport}/extension-keys-reverse-dns-and-unknown-extensions-change-nothing`,
      requirements: ['AHP-EXT-001'],
      transport,
      policy: 'fail-closed',
      label: 'empty-effects-with-unknown-extension',
      behaviour: { kind: 'respond', extensions: UNKNOWN_EXTENSIONS },
      then: [
        {
          label: 'deny-with-unknown-extension',
          behaviour: {
            kind: 'respond',
            effects: [{ type: 'deny', reason: EXPLICIT_DENY_REASON }],
            extensions: UNKNOWN_EXTENSIONS,
          },
        },
      ],
      checks: [EXTENSION_KEYS_VALID],
    },
  ]);
}
