import { describe, expect, it } from 'vitest';
import type { InvokeResult } from '../../driver/index.js';
import type { CaseRunContext, StepRun } from '../kit/case-model.js';
import {
  auditTellsThemApart,
  CANARY,
  reasonIsGeneric,
  reasonLeaks as reasonLeaksFindings,
} from './synthetic-checks.js';
import { messagesOf as messages } from '../kit/rules.js';

/** The checks' findings as their messages (the rules are asserted where they matter). */
const reasonLeaks = (...args: Parameters<typeof reasonLeaksFindings>) =>
  messages(reasonLeaksFindings(...args));

const ID = 'dev.ahp-conformance.mock';
const written =
  '{"jsonrpc":"2.0","id":"evt-1","error":{"code":-32004,"message":"engine exploded in evaluate_rules"}}';

function run(result: Partial<InvokeResult>): StepRun {
  return {
    index: 0,
    eventId: 'evt-1',
    suggestedEventId: 'evt-1',
    callId: 'call-1',
    elapsedMs: 1,
    expected: {} as StepRun['expected'],
    result: { decision: 'deny', synthetic: true, interrupted: false, audit: [], ...result },
    records: {
      frames: [
        {
          delivery: 1,
          kind: 'request',
          transport: 'http',
          connectionId: '1',
          atMs: 0,
          atWallMs: 0,
          bytes: { text: '{}' },
          hasId: true,
          behaviour: { kind: 'respond' },
          actions: [{ type: 'write', afterMs: 0, bytes: { text: written } }],
        },
      ],
      requests: [],
      notifications: [],
    },
  };
}

const context = (runs: StepRun[] = []): CaseRunContext =>
  ({
    backendId: ID,
    token: 'tok-abcdef123456',
    httpUrl: 'http://127.0.0.1:45678/',
    stdioCommand: [
      '/usr/bin/node',
      '/opt/ahp/dist/mock-stdio.mjs',
      '--control-url',
      'http://127.0.0.1:40001/',
    ],
    runs,
    untested: (reason: string) => {
      throw new Error(`untested: ${reason}`);
    },
  }) as unknown as CaseRunContext;

describe('reasonLeaks', () => {
  it('passes a generic reason', () => {
    expect(reasonLeaks('Required policy backend unavailable.', run({}), context())).toEqual([]);
  });

  it.each([
    [`backend said ${CANARY}`, /content marker/],
    ['token tok-abcdef123456 rejected', /bearer token/],
    ['POST http://127.0.0.1:45678 failed', /URL|host and port/],
    ['connect ECONNREFUSED 127.0.0.1', /backend address/],
    ['port :45678 closed', /backend port/],
    ['spawn /opt/ahp/dist/mock-stdio.mjs failed', /command line/],
    ['backend error: engine exploded in evaluate_rules', /bytes the backend sent/],
    ['Error: boom\n    at evaluate (/srv/x.js:1:2)', /stack trace/],
  ])('finds the leak in %j', (reason, what) => {
    expect(reasonLeaks(reason, run({}), context()).join('\n')).toMatch(what);
  });
});

describe('reasonIsGeneric', () => {
  it('is untested without a reason, fails on an empty one, ignores explicit denials', async () => {
    await expect(Promise.resolve().then(() => reasonIsGeneric.run(run({}), context()))).rejects.toThrow(
      /untested/,
    );
    const empty = await reasonIsGeneric.run(run({ reason: ' ' }), context());
    expect(messages(empty)).toEqual(['the synthetic denial shows an empty reason']);
    expect(empty.map((f) => f.rule)).toEqual(['synthetic.generic-reason']);
    expect(reasonLeaksFindings(CANARY, run({}), context())[0]?.rule).toBe('synthetic.no-details');
    expect(await reasonIsGeneric.run(run({ synthetic: false, reason: CANARY }), context())).toEqual([]);
  });
});

describe('auditTellsThemApart', () => {
  it('fails when a synthetic and an explicit denial leave the same audit record', async () => {
    const same = { backendId: ID, outcome: 'deny' as const };
    const first = run({ audit: [same] });
    const second = run({ synthetic: false, audit: [same] });
    const same2 = await auditTellsThemApart.run(second, context([first, second]));
    expect(same2.map((f) => f.requirement)).toEqual(['AHPX-SYN-001']);
    const distinct = run({ audit: [{ backendId: ID, outcome: 'operational-failure', synthetic: true }] });
    expect(await auditTellsThemApart.run(second, context([distinct, second]))).toEqual([]);
  });
});
