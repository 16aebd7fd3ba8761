/**
 * When a harness case cannot be judged: the harness wrote frames to the backend, but none of them
 * is a request the backend could answer (bytes that are not UTF-8 or not JSON, JSON that is no
 * JSON-RPC message, a batch, a hooks/intercept without an id, another method). Whatever the case
 * expects of the answer then rests on something broken underneath it, and the case is `blocked`
 * by the finding of that frame (framing or envelope rank) instead of failing on its own
 * requirement. Run-step.ts asks only for a step whose expectation needs the backend's answer and
 * whose call reached the mock as no request; a case whose subject is delivery itself is judged
 * (suites/harness/README.md, "Blocked"). Pure.
 */
import { isJsonObject, type JsonValue } from '../../../protocol/json.js';
import { byRank, type Finding } from '../../common/finding.js';
import { finding } from './rules.js';
import type { WireFrame } from './wire-records.js';

const INTERCEPT = 'hooks/intercept';
const OBSERVE = 'hooks/observe';

function parse(text: string): { ok: true; value: JsonValue } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch {
    return { ok: false };
  }
}

/** True when the mock could answer the frame: a hooks/intercept request with an id. */
export function isAnswerableRequest(frame: WireFrame): boolean {
  return frame.kind === 'request' && frame.method === INTERCEPT && frame.hasId;
}

/** What is wrong with one frame as a decision request, or undefined (a request, or an observation). */
export function frameFault(frame: WireFrame): Finding | undefined {
  if (isAnswerableRequest(frame)) return undefined;
  const at = `frame ${frame.delivery}`;
  if ('base64' in frame.bytes) return finding('rpc.utf8', `${at} is not valid UTF-8`);
  const framingRule = frame.transport === 'http' ? 'http.body' : 'stdio.framing';
  const text = frame.bytes.text;
  if (text.trim() === '') return finding(framingRule, `${at} is empty`, { way: 'empty' });
  const parsed = parse(text);
  if (!parsed.ok) {
    const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
    return finding(framingRule, `${at} is not JSON: ${JSON.stringify(shown)}`, { way: 'not-json' });
  }
  const message = parsed.value;
  if (Array.isArray(message)) {
    return finding('rpc.envelope', `${at} is a JSON-RPC batch, which AHP does not use`, { way: 'batch' });
  }
  if (!isJsonObject(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
    return finding('rpc.envelope', `${at} is JSON but no JSON-RPC 2.0 request or notification`, {
      way: 'not-json-rpc',
    });
  }
  if (message.method === OBSERVE) return undefined;
  if (message.method === INTERCEPT) {
    return Object.hasOwn(message, 'id')
      ? undefined
      : finding('rpc.intercept-request', `${at} sends hooks/intercept without an id (a notification)`, {
          way: 'notification',
        });
  }
  return finding('rpc.intercept-request', `${at} asks for a decision with method "${message.method}"`, {
    way: 'other-method',
  });
}

/**
 * The finding that blocks a step, given the frames the case's mock received while the step ran
 * and no request of the call was found among them: the most fundamental fault of those frames,
 * when none of them is a request the mock could answer. Undefined when nothing arrived (the call
 * was not delivered: judged), when an answerable request arrived (it belongs to some call: the
 * case judges what it shows), or when every frame was an observation.
 */
export function blockingFinding(frames: readonly WireFrame[]): Finding | undefined {
  if (frames.length === 0 || frames.some(isAnswerableRequest)) return undefined;
  const faults = frames.map(frameFault).filter((f): f is Finding => f !== undefined);
  return byRank(faults)[0];
}
