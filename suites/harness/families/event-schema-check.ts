/**
 * The event of each frame a call sent, validated against the draft's schema for its type with the
 * protocol's own validator (protocol/event-validation.ts): the violations it tags AHP-RPC-001 (the
 * envelope and the payload; content and extension keys are judged by their own cases). The same
 * for a `hooks/intercept` request and a `hooks/observe` notification, which carry one event shape.
 */
import { validateEvent } from '../../../protocol/event-validation.js';
import { isJsonObject, type JsonValue } from '../../../protocol/json.js';
import type { Finding } from '../../common/finding.js';
import type { CaseCheck } from '../kit/case-model.js';
import { finding } from '../kit/rules.js';
import { bytesText, type WireFrame } from '../kit/wire-records.js';

type Method = 'hooks/intercept' | 'hooks/observe';

const MISSING: Readonly<Record<Method, () => Finding>> = {
  'hooks/intercept': () =>
    finding('delivery.request-sent', 'no hooks/intercept request for this call reached the mock'),
  'hooks/observe': () =>
    finding('observe.delivered', 'no hooks/observe notification for this call reached the mock'),
};

/** The schema violations of one recorded frame's event, as findings of `event.payload`. */
export function frameEventProblems(frame: WireFrame, method: Method): Finding[] {
  let message: JsonValue;
  try {
    message = JSON.parse(bytesText(frame.bytes)) as JsonValue;
  } catch {
    return [finding('rpc.envelope', `${method} ${frame.delivery} is not JSON`, { way: 'not-json' })];
  }
  const params = isJsonObject(message) ? message.params : undefined;
  const event = isJsonObject(params) ? params.event : undefined;
  if (event === undefined) return [finding('event.payload', `${method} ${frame.delivery}: no params.event`)];
  return validateEvent(event, '$.params.event')
    .filter((v) => v.requirement === 'AHP-RPC-001')
    .map((v) => finding('event.payload', `${method} ${frame.delivery}: ${v.path} ${v.message}`));
}

/** Every frame of `method` the call sent carries an event valid against its type's schema. */
export function eventSchemaCheck(method: Method): CaseCheck {
  return {
    name: `${method} event valid against its schema`,
    async run(run, context) {
      await context.waitForFrames(run.index, method, 1);
      const records = context.recordsNow(run.index);
      const frames = method === 'hooks/intercept' ? records.requests : records.notifications;
      if (frames.length === 0) return [MISSING[method]()];
      return frames.flatMap((frame) => frameEventProblems(frame, method));
    },
  };
}
