/**
 * Every scripted reply answers the id the harness sent. A harness whose JSON-RPC ids are not the
 * event id breaks AHP-CORE-004, judged by that requirement's cases; a reply under the suggested
 * event id instead of the id sent would make every other case judge the id a second time. Each
 * data case of every suite file, declared as the file declares it, is run through the mock's
 * engine step by step with intercept requests numbered by a counter (never the event id), over the
 * case's transport; every JSON-RPC reply the mock writes must carry the request's id, but for the
 * behaviours whose point is a wrong or missing id, listed below. Hand-written cases script only
 * behaviours the mock builds around the request's id, and `raw` bytes only where listed below.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { INTERCEPTABLE_EVENTS } from '../../../protocol/events.js';
import { isJsonObject, type JsonValue } from '../../../protocol/json.js';
import { createMock, type Behaviour, type InboundFrame } from '../../../mock-backend/index.js';
import type { InitializeResult } from '../../driver/index.js';
import type { HarnessCase } from '../kit/case-model.js';
import type { TransportChoiceCase } from '../kit/define.js';
import { caseScenario } from '../kit/scenario.js';
import type { HarnessTransport } from '../kit/timing.js';
import { STRAY_REPLY_ID } from './stray-reply-cases.js';

const declared = vi.hoisted(() => ({
  cases: [] as HarnessCase[],
  choices: [] as TransportChoiceCase[],
  files: [] as string[],
}));

// The suite files declare their cases through these; here they only collect the data cases.
vi.mock('../kit/define.js', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  harnessCases: (_fixture: unknown, cases: readonly HarnessCase[]) => declared.cases.push(...cases),
  harnessCasesOverOneTransport: (_fixture: unknown, cases: readonly TransportChoiceCase[]) =>
    declared.choices.push(...cases),
  driverCase: () => undefined,
}));
vi.mock('../kit/fixture.js', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  useHarnessFixture: () => ({ concurrent: false }),
}));

const FAMILIES = fileURLToPath(new URL('.', import.meta.url));
const suiteFiles = readdirSync(FAMILIES).filter((f) => f.endsWith('.conformance.ts'));

/** A driver that announces everything, so every transport-choice case builds. */
const EVERYTHING: InitializeResult = {
  implementation: { name: 'reply-ids', version: '1' },
  protocolVersions: ['draft'],
  bindings: ['stdio', 'http'],
  features: { stdioPersistent: true, http: true, retries: true, events: [...INTERCEPTABLE_EVENTS] },
};

/**
 * Behaviours whose point is a reply that answers no request: under another id (or null), or
 * without one. A step that holds one is not held to the request's id.
 */
const WRONG_ID_ON_PURPOSE: readonly ((b: Behaviour) => boolean)[] = [
  (b) => b.kind === 'mismatched-id',
  (b) => b.kind === 'not-jsonrpc' && b.variant === 'no-id',
];

/**
 * The family files that script `raw` bytes, each with why that is no reply that escapes the check
 * below: a new one must be added here, with its reason, or answer through `{{request.id}}`.
 */
const RAW_SCRIPTED: Readonly<Record<string, string>> = {
  'properties-corrupt.ts': 'byte streams that must not be a valid reply to the request (their point)',
  'fail-observe-cases.ts': "an observer's failure: it answers a notification, which has no id",
  'core-unknown-fields-cases.ts': 'a data case: its replies are checked with the others',
  'stray-reply-cases.ts':
    'a reply under STRAY_REPLY_ID before the live one (their point); the live replies are checked with the others',
};

function behaviours(b: Behaviour): Behaviour[] {
  switch (b.kind) {
    case 'delay':
      return [b, ...behaviours(b.then)];
    case 'sequence':
      return [b, ...b.steps.flatMap(behaviours), ...(b.then ? behaviours(b.then) : [])];
    case 'probability':
      return [b, ...behaviours(b.behaviour), ...behaviours(b.otherwise)];
    case 'exit':
    case 'signal':
      return [b, ...(b.reply ? behaviours(b.reply) : [])];
    default:
      return [b];
  }
}

const wrongIdOnPurpose = (b: Behaviour) => behaviours(b).some((x) => WRONG_ID_ON_PURPOSE.some((p) => p(x)));

/** The JSON values of what the mock wrote: a stdio line each, or one HTTP body. */
function writtenJson(transport: HarnessTransport, bytes: Buffer): JsonValue[] {
  const text = bytes.toString('utf8');
  const frames = transport === 'http' ? [text] : text.split('\n');
  return frames.flatMap((f) => {
    try {
      return [JSON.parse(f) as JsonValue];
    } catch {
      return []; // not JSON: no id to answer with (a malformed reply's point)
    }
  });
}

/** The ids of the JSON-RPC replies among `values` (a batch's members included). */
function replyIds(values: readonly JsonValue[]): JsonValue[] {
  return values
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .filter(isJsonObject)
    .filter((v) => 'result' in v || 'error' in v)
    .map((v) => ('id' in v ? (v.id as JsonValue) : '(no id)'));
}

/** What each step of `testCase` wrote to intercept requests numbered 1, 2, ...: per step and attempt. */
function repliesOf(testCase: HarnessCase): { step: number; id: number; replyIds: JsonValue[] }[] {
  const steps = [testCase, ...(testCase.then ?? [])];
  const stepIds = steps.map((_, i) => [`evt-rid-${i}`, `call-rid-${i}`]);
  const scenario = caseScenario(testCase, {
    stepIds,
    timeoutMs: 1000,
    lateByMs: 300,
    justLateByMs: 60,
    settleToleranceMs: 500,
    token: 'tok',
  });
  const mock = createMock({ scenario });
  const transport = testCase.transport === 'http' ? 'http' : 'stdio';
  const out: { step: number; id: number; replyIds: JsonValue[] }[] = [];
  steps.forEach((_, i) => {
    const id = i + 1;
    const request = {
      jsonrpc: '2.0',
      id,
      method: 'hooks/intercept',
      params: {
        protocolVersion: 'draft',
        event: {
          id: stepIds[i]?.[0],
          type: steps[i]?.event ?? 'tool.before',
          call: { id: stepIds[i]?.[1] },
          tool: { name: 'Bash', input: { command: 'ls' } },
        },
      },
    };
    const text = JSON.stringify(request);
    // Retries resend the same request: every attempt of a sequence answers it.
    for (let attempt = 0; attempt < 4; attempt++) {
      const frame: InboundFrame = {
        bytes: Buffer.from(transport === 'stdio' ? `${text}\n` : text),
        transport,
        connectionId: '1',
        at: mock.now(),
        ...(transport === 'http'
          ? {
              http: {
                method: 'POST',
                path: '/',
                headers: { 'content-type': 'application/json', authorization: 'Bearer tok' },
              },
            }
          : {}),
      };
      const actions = mock.step(frame).actions;
      // An HTTP answer under another status is no JSON-RPC reply, whatever its body holds.
      if (actions.some((a) => a.type === 'head' && a.status !== 200)) continue;
      const written = Buffer.concat(
        actions.flatMap((a) => (a.type === 'write' ? [Buffer.from(a.bytes)] : [])),
      );
      out.push({ step: i, id, replyIds: replyIds(writtenJson(testCase.transport, written)) });
    }
  });
  return out;
}

describe('scripted replies', async () => {
  for (const file of suiteFiles) {
    declared.files.push(file);
    await import(`./${file}`);
  }
  const cases = [
    ...declared.cases,
    ...declared.choices.map((c) => c.build(c.transports[0] as HarnessTransport, EVERYTHING)),
  ];

  it('are collected from every suite file', () => {
    expect(declared.files.length).toBeGreaterThan(20);
    // The cases whose raw replies once answered the suggested event id are among them.
    expect(cases.filter((c) => c.name.includes('unknown-result-fields-are-ignored'))).toHaveLength(5);
    expect(cases.length).toBeGreaterThan(200);
  });

  it('answer the id the harness sent, in every data case, but where a wrong id is the point', () => {
    const wrong = new Set<string>();
    let checked = 0;
    for (const testCase of cases) {
      const steps = [testCase, ...(testCase.then ?? [])];
      for (const { step, id, replyIds } of repliesOf(testCase)) {
        if (wrongIdOnPurpose((steps[step] as HarnessCase).behaviour)) continue;
        checked += replyIds.length;
        for (const replyId of replyIds) {
          // A stray reply answers no request on purpose; the step's live reply is still checked.
          if (replyId !== id && replyId !== STRAY_REPLY_ID)
            wrong.add(`${testCase.name} call ${step + 1}: request ${id}, reply ${JSON.stringify(replyId)}`);
        }
      }
    }
    expect([...wrong]).toEqual([]);
    expect(checked).toBeGreaterThan(200);
  });

  it('script raw bytes only in the files listed, each with its reason', () => {
    const withRaw = readdirSync(FAMILIES)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .filter((f) => /kind: 'raw'/.test(readFileSync(`${FAMILIES}${f}`, 'utf8')));
    expect(withRaw.sort()).toEqual(Object.keys(RAW_SCRIPTED).sort());
  });
});
