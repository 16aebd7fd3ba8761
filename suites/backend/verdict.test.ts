import { describe, expect, it } from 'vitest';
import { findingKey } from '../common/finding.js';
import { toFinding } from './faults.js';
import { RULES } from './rules.js';
import { step, stepsFor, type Probe } from './probe.js';
import {
  INVALID_REQUEST_PROBES,
  PARSE_ERROR_PROBES,
  TOOL_LESS_PROBES,
  UNPROCESSABLE_REQUEST_PROBES,
} from './probes-robustness.js';
import { decision, DENY, failed, notified, replied, rpcError } from './test-observations.js';
import { WIRE_PROBES } from './probes-wire.js';
import type { BackendBinding } from './target.js';
import { decisionSignature, judgeProbe, runMayStop } from './verdict.js';

const ALLOW = { send: 'intercept', input: 'allow' } as const;
/** The message of a plain decision ([]) for the request of `step`. */
const DECIDED = (step: number) => ({
  jsonrpc: '2.0',
  id: `evt_${step}`,
  result: { protocolVersion: 'draft', effects: [] },
});

describe('probe verdicts', () => {
  const wire: Probe = {
    requirement: 'AHP-RPC-001',
    name: 'w',
    rule: RULES.jsonRpcResponse,
    steps: [step.subject(ALLOW), step.subject(ALLOW)],
  };

  it("subject steps: own findings fail; another requirement's defect is reported beside the verdict unless it keeps the case from reading its reply", () => {
    expect(judgeProbe(wire, wire.steps, [decision(0, []), decision(1, [])], 'http').status).toBe('pass');
    const own = judgeProbe(
      wire,
      wire.steps,
      [decision(0, []), { ...decision(1, []), frame: { kind: 'request', text: '', id: 'zz' } }],
      'http',
    );
    expect(own).toMatchObject({ status: 'fail', faults: [{ requirement: 'AHP-RPC-001', step: 2 }] });
    const other = judgeProbe(
      wire,
      wire.steps,
      [decision(0, []), decision(1, [], { protocolVersion: 'x' })],
      'http',
    );
    expect(other).toMatchObject({ status: 'pass', others: [{ requirement: 'AHP-VER-001', step: 2 }] });
    const version: Probe = {
      ...wire,
      requirement: 'AHP-VER-001',
      rule: RULES.resultVersion,
      reads: 'decision',
    };
    const unadvertised = [decision(0, []), decision(1, [{ type: 'allow' }])];
    expect(judgeProbe(version, version.steps, unadvertised, 'http').status).toBe('pass');
    const error = [decision(0, []), rpcError(1, -32602)];
    expect(judgeProbe(wire, wire.steps, error, 'http').status).toBe('pass');
    const unread = judgeProbe(version, version.steps, error, 'http');
    expect(unread).toMatchObject({ status: 'blocked', by: { requirement: 'AHP-DEC-001', step: 2 } });
    const silent = judgeProbe(wire, wire.steps, [decision(0, []), failed(1, 'deadline')], 'http');
    expect(silent).toMatchObject({
      status: 'blocked',
      by: { requirement: 'AHP-RPC-002', rule: RULES.requestAnswered },
    });
    const unreachable = judgeProbe(wire, wire.steps, [decision(0, []), failed(1, 'http.closed')], 'http');
    expect(unreachable.status === 'untested' && unreachable.reason).toMatch(
      /^step 2 could not reach the backend/,
    );
  });

  it('an allow-path case is untested when the allow input was never decided []', () => {
    const allowPath: Probe = {
      ...wire,
      requirement: 'AHP-CAP-001',
      rule: RULES.advertisedOnly,
      requireAllowed: true,
    };
    expect(
      judgeProbe(allowPath, allowPath.steps, [decision(0, []), decision(1, [DENY])], 'http').status,
    ).toBe('pass');
    const denied = judgeProbe(allowPath, allowPath.steps, [decision(0, [DENY]), decision(1, [DENY])], 'http');
    expect(denied.status === 'untested' && denied.reason).toMatch(
      /never answered the allow input with no effects \(\[\]\): it answered deny\(org\.example\.block\), .*--allow-input/,
    );
    const unadvertised = [decision(0, [{ type: 'allow' }]), decision(1, [{ type: 'allow' }])];
    expect(judgeProbe(allowPath, allowPath.steps, unadvertised, 'http').status).toBe('fail');
  });

  it('a judged-on-every-result case is judged on denies alone, and untested only without any effect list', () => {
    const everyResult: Probe = {
      ...wire,
      requirement: 'AHP-CAP-001',
      rule: RULES.advertisedOnly,
      requireResult: true,
    };
    const denies = [decision(0, [DENY]), decision(1, [DENY])];
    expect(judgeProbe(everyResult, everyResult.steps, denies, 'http').status).toBe('pass');
    const withMessage = [decision(0, [DENY, { type: 'message', text: 'x' }]), decision(1, [DENY])];
    expect(judgeProbe(everyResult, everyResult.steps, withMessage, 'http').status).toBe('fail');
    const errors = [rpcError(0, -32603), rpcError(1, -32603)];
    const none = judgeProbe(everyResult, everyResult.steps, errors, 'http');
    expect(none.status === 'untested' && none.reason).toMatch(
      /returned no effect list to any decision request/,
    );
  });

  const dup: Probe = {
    requirement: 'AHP-CORE-004',
    name: 'd',
    rule: RULES.jsonRpcResponse,
    steps: [step.baseline(ALLOW), step.variant({ send: 'repeat', of: 0 })],
    sameDecision: [[0, 1]],
  };

  it('a failed baseline blocks the case; a failed variant fails it under the probe rule, naming the symptom', () => {
    const blocked = judgeProbe(
      dup,
      dup.steps,
      [failed(0, 'stdio.framing.multi-line'), decision(1, [])],
      'stdio-persistent',
    );
    expect(blocked).toMatchObject({ status: 'blocked', by: { requirement: 'AHP-STDIO-001', step: 1 } });
    const broken = judgeProbe(
      dup,
      dup.steps,
      [decision(0, []), failed(1, 'stdio.exit-nonzero')],
      'stdio-persistent',
    );
    expect(broken).toMatchObject({ status: 'fail', faults: [{ requirement: 'AHP-CORE-004', step: 2 }] });
    expect(broken.status === 'fail' && broken.faults[0]?.message).toMatch(/\(AHP-STDIO-001 symptom\)$/);
  });

  it('output left over from before a variant does not fail the variant', () => {
    const v = judgeProbe(
      dup,
      dup.steps,
      [decision(0, []), failed(1, 'stdio.unsolicited-output')],
      'stdio-persistent',
    );
    expect(v).toMatchObject({ status: 'blocked', by: { requirement: 'AHP-STDIO-001', ambient: true } });
  });

  it('a variant repeating a content defect its baseline already showed is not failed for it', () => {
    const unadvertised = [decision(0, [{ type: 'allow' }]), decision(1, [{ type: 'allow' }])];
    expect(judgeProbe(dup, dup.steps, unadvertised, 'http')).toMatchObject({
      status: 'pass',
      others: [
        { requirement: 'AHP-CAP-001', step: 1 },
        { requirement: 'AHP-CAP-001', step: 2 },
      ],
    });
    const newDefect = [decision(0, []), decision(1, [{ type: 'allow' }])];
    expect(judgeProbe(dup, dup.steps, newDefect, 'http')).toMatchObject({
      status: 'fail',
      faults: [{ requirement: 'AHP-CORE-004', step: 2 }, { step: 2 }],
    });
  });

  it('compares decisions by effect types and deny codes', () => {
    expect(decisionSignature([])).toBe('[]');
    expect(decisionSignature([DENY])).toBe('deny(org.example.block)');
    expect(decisionSignature([{ type: 'deny', reason: 'other words' }])).toBe('deny');
    expect(
      judgeProbe(dup, dup.steps, [decision(0, [DENY]), decision(1, [{ ...DENY, reason: 'again' }])], 'http')
        .status,
    ).toBe('pass');
    const differs = judgeProbe(dup, dup.steps, [decision(0, []), decision(1, [DENY])], 'http');
    expect(differs).toMatchObject({
      status: 'fail',
      faults: [{ message: 'step 2 was decided deny(org.example.block) but step 1 was decided []' }],
    });
  });

  const errorMust: Probe = {
    requirement: 'AHP-VER-001',
    name: 'e',
    rule: RULES.unsupportedVersion,
    steps: [step.baseline(ALLOW), step.variant(ALLOW, 'error'), step.variant(ALLOW)],
    refusal: { what: 'a bad version', rule: RULES.unsupportedVersion },
  };
  // A code case at SHOULD (no backend basis is one today; the mechanism stays for one that is).
  const errorShould: Probe = {
    ...errorMust,
    rule: {
      ...RULES.unsupportedVersionCode,
      basis: { ...RULES.unsupportedVersionCode.basis, level: 'SHOULD' },
    },
    errorCode: -32001,
  };

  it('defined errors: the MUST case wants an error and a working backend after it; the SHOULD case only the code', () => {
    const good = [decision(0, []), rpcError(1, -32001), decision(2, [])];
    expect(judgeProbe(errorMust, errorMust.steps, good, 'http').status).toBe('pass');
    expect(judgeProbe(errorShould, errorShould.steps, good, 'http').status).toBe('pass');
    const result = [decision(0, []), decision(1, []), decision(2, [])];
    const must = judgeProbe(errorMust, errorMust.steps, result, 'http');
    const should = judgeProbe(errorShould, errorShould.steps, result, 'http');
    expect(must.status).toBe('fail');
    // Not refused at all: the code case is blocked by the very finding its MUST twin fails with.
    expect(should.status).toBe('blocked');
    const keyOf = (f: Parameters<typeof toFinding>[0]) => findingKey(toFinding(f, ''));
    if (must.status !== 'fail' || should.status !== 'blocked') throw new Error('unreachable');
    expect(keyOf(should.by)).toBe(keyOf(must.faults[0] as Parameters<typeof toFinding>[0]));
    const generic = [decision(0, []), rpcError(1, -32603), decision(2, [])];
    expect(judgeProbe(errorMust, errorMust.steps, generic, 'http').status).toBe('pass');
    expect(judgeProbe(errorShould, errorShould.steps, generic, 'http')).toMatchObject({
      status: 'fail',
      faults: [{ message: 'a bad version got error code -32603; the code due is -32001' }],
    });
    const broke = [decision(0, []), rpcError(1, -32001), failed(2, 'http.connection-refused')];
    expect(judgeProbe(errorMust, errorMust.steps, broke, 'http').status).toBe('fail');
  });

  it('unprocessable requests: any error with the request id passes; a result, a wrong id, a crash or silence fails', () => {
    expect(UNPROCESSABLE_REQUEST_PROBES.map((p) => p.name)).toEqual([
      'intercept-without-params/gets-an-error-and-the-backend-keeps-working',
      'intercept-params-without-event/gets-an-error-and-the-backend-keeps-working',
    ]);
    for (const p of UNPROCESSABLE_REQUEST_PROBES) {
      // The draft defines no code for these requests: no case judges one.
      expect(p.errorCode).toBeUndefined();
      const run = (second: ReturnType<typeof decision>) =>
        judgeProbe(p, p.steps, [decision(0, []), second, decision(2, [])], 'stdio-persistent');
      for (const code of [-32602, -32001, -32002, -32600]) expect(run(rpcError(1, code)).status).toBe('pass');
      const nullId = replied(1, { jsonrpc: '2.0', id: null, error: { code: -32602, message: 'no' } });
      for (const bad of [
        decision(1, []),
        nullId,
        failed(1, 'stdio.exit-before-reply'),
        failed(1, 'deadline'),
      ]) {
        expect(run(bad), JSON.stringify(bad.reply)).toMatchObject({
          status: 'fail',
          faults: [{ requirement: 'AHP-RPC-001', rule: RULES.unprocessableRequest, step: 2 }],
        });
      }
      const died = judgeProbe(
        p,
        p.steps,
        [decision(0, []), rpcError(1, -32602), failed(2, 'stdio.exit-before-reply')],
        'stdio-persistent',
      );
      expect(died).toMatchObject({ status: 'fail', faults: [{ requirement: 'AHP-RPC-001', step: 3 }] });
    }
  });

  it('a line that is not JSON: an error with id null and a backend that keeps working pass; the code is a SHOULD of its own', () => {
    const [must, code] = PARSE_ERROR_PROBES as [Probe, Probe];
    expect([must.name, code.name]).toEqual([
      'line-not-json/gets-an-error-with-id-null-and-the-backend-keeps-working',
      'line-not-json/error-code:-32700',
    ]);
    expect([must.rule.basis.level, code.rule.basis.level]).toEqual(['MUST', 'SHOULD']);
    for (const p of PARSE_ERROR_PROBES) expect(p.bindings).toEqual(['stdio-persistent', 'stdio-per_event']);
    const parseError = (c: number, id: string | null = null, pids = [100]) =>
      replied(1, { jsonrpc: '2.0', id, error: { code: c, message: 'Parse error' } }, null, pids);
    const run = (p: Probe, second: ReturnType<typeof decision>, third = decision(2, [])) =>
      judgeProbe(p, p.steps, [decision(0, []), second, third], 'stdio-persistent');
    expect(run(must, parseError(-32700)).status).toBe('pass');
    expect(run(code, parseError(-32700)).status).toBe('pass');
    // Any error code passes the MUST; only its twin asks for -32700.
    expect(run(must, parseError(-32600)).status).toBe('pass');
    expect(run(code, parseError(-32600))).toMatchObject({
      status: 'fail',
      faults: [{ rule: RULES.parseErrorCode, way: 'error-code', step: 2 }],
    });
    for (const bad of [
      parseError(-32700, 'evt_1'),
      replied(1, { jsonrpc: '2.0', id: null, result: { protocolVersion: 'draft', effects: [] } }, null),
      failed(1, 'stdio.exit-before-reply'),
      failed(1, 'deadline'),
    ]) {
      expect(run(must, bad), JSON.stringify(bad.reply)).toMatchObject({
        status: 'fail',
        faults: [{ requirement: 'AHP-RPC-001', rule: RULES.parseError, step: 2 }],
      });
      // The code twin cannot judge a code where no error came: the MUST's failure blocks it.
      expect(run(code, bad).status).toBe('blocked');
    }
    // An answer, then another process for the next request: it did not keep working.
    const replaced = run(must, parseError(-32700), replied(2, DECIDED(2), 'evt_2', [200]));
    expect(replaced).toMatchObject({ status: 'fail', faults: [{ way: 'process-replaced' }] });
    expect(run(code, parseError(-32700), replied(2, DECIDED(2), 'evt_2', [200])).status).toBe('pass');
    // per_event: one process per message, so the process is not held to it.
    const perEvent = [decision(0, []), parseError(-32700, null, []), replied(2, DECIDED(2), 'evt_2', [200])];
    expect(judgeProbe(must, must.steps, perEvent, 'stdio-per_event').status).toBe('pass');
  });

  it('a line that is JSON but no Request object: an error with id null passes; the code -32600 is a SHOULD of its own', () => {
    const [must, code] = INVALID_REQUEST_PROBES as [Probe, Probe];
    expect(INVALID_REQUEST_PROBES.map((p) => p.name)).toEqual([
      'line-not-a-request/gets-an-error-with-id-null-and-the-backend-keeps-working',
      'line-not-a-request/error-code:-32600',
      'line-json-null/gets-an-error-with-id-null-and-the-backend-keeps-working',
      'line-json-null/error-code:-32600',
    ]);
    expect(INVALID_REQUEST_PROBES.map((p) => p.steps[1]?.frame)).toEqual([
      { send: 'invalid-request', shape: 'method-not-a-string' },
      { send: 'invalid-request', shape: 'method-not-a-string' },
      { send: 'invalid-request', shape: 'null' },
      { send: 'invalid-request', shape: 'null' },
    ]);
    expect([must.rule, code.rule]).toEqual([RULES.invalidRequest, RULES.invalidRequestCode]);
    expect([must.rule.basis.level, code.rule.basis.level]).toEqual(['MUST', 'SHOULD']);
    for (const p of INVALID_REQUEST_PROBES)
      expect(p.bindings).toEqual(['stdio-persistent', 'stdio-per_event']);
    const invalid = (c: number, id: string | null = null) =>
      replied(1, { jsonrpc: '2.0', id, error: { code: c, message: 'Invalid Request' } }, null);
    const run = (p: Probe, second: ReturnType<typeof decision>, third = decision(2, [])) =>
      judgeProbe(p, p.steps, [decision(0, []), second, third], 'stdio-persistent');
    expect(run(must, invalid(-32600)).status).toBe('pass');
    expect(run(code, invalid(-32600)).status).toBe('pass');
    // A loop that routes on the method alone answers -32601: the MUST passes, its code twin does not.
    expect(run(must, invalid(-32601)).status).toBe('pass');
    expect(run(code, invalid(-32601))).toMatchObject({
      status: 'fail',
      faults: [{ rule: RULES.invalidRequestCode, way: 'error-code', step: 2 }],
    });
    for (const bad of [
      invalid(-32600, 'evt_1'),
      replied(1, { jsonrpc: '2.0', id: null, result: { protocolVersion: 'draft', effects: [] } }, null),
      failed(1, 'stdio.exit-before-reply'),
      failed(1, 'deadline'),
    ]) {
      expect(run(must, bad), JSON.stringify(bad.reply)).toMatchObject({
        status: 'fail',
        faults: [{ requirement: 'AHP-RPC-001', rule: RULES.invalidRequest, step: 2 }],
      });
      expect(run(code, bad).status).toBe('blocked');
    }
  });

  it('a tool.before without a tool or its input: an error or a decision with its id passes; a wrong id, a crash or another process fails', () => {
    expect(TOOL_LESS_PROBES.map((p) => p.name)).toEqual([
      'tool-before-without-tool/gets-an-answer-with-its-id-and-the-backend-keeps-working',
      'tool-before-tool-without-input/gets-an-answer-with-its-id-and-the-backend-keeps-working',
    ]);
    for (const p of TOOL_LESS_PROBES) {
      expect(p.errorCode).toBeUndefined();
      const run = (second: ReturnType<typeof decision>, third = decision(2, [])) =>
        judgeProbe(p, p.steps, [decision(0, []), second, third], 'stdio-persistent');
      for (const answer of [decision(1, []), decision(1, [DENY]), rpcError(1, -32602), rpcError(1, -32002)]) {
        expect(run(answer).status, JSON.stringify(answer.reply)).toBe('pass');
      }
      const nullId = replied(1, { jsonrpc: '2.0', id: null, error: { code: -32602, message: 'no' } });
      for (const bad of [nullId, failed(1, 'stdio.exit-before-reply'), failed(1, 'deadline')]) {
        expect(run(bad), JSON.stringify(bad.reply)).toMatchObject({
          status: 'fail',
          faults: [{ requirement: 'AHP-RPC-001', rule: RULES.toolLessRequest, step: 2 }],
        });
      }
      expect(run(decision(1, []), replied(2, DECIDED(2), 'evt_2', [200]))).toMatchObject({
        status: 'fail',
        faults: [{ way: 'process-replaced' }],
      });
    }
  });

  it('notification silence is judged on the notification step, its follow-up as a variant', () => {
    const probe: Probe = {
      requirement: 'AHP-RPC-002',
      name: 'n',
      rule: RULES.jsonRpcResponse,
      steps: [step.baseline(ALLOW), step.subject({ send: 'observe' }, 'silence'), step.variant(ALLOW)],
    };
    const quiet = [decision(0, []), notified(1, 'notify', { ok: true }), decision(2, [])];
    expect(judgeProbe(probe, probe.steps, quiet, 'stdio-persistent').status).toBe('pass');
    const loud = [
      decision(0, []),
      notified(1, 'notify', { ok: true }, ['{"jsonrpc":"2.0","id":null,"result":{}}']),
      failed(2, 'stdio.unsolicited-output'),
    ];
    expect(judgeProbe(probe, probe.steps, loud, 'stdio-persistent')).toMatchObject({
      status: 'fail',
      faults: [{ requirement: 'AHP-RPC-002', step: 2 }],
    });
  });

  it('a notification the backend cannot process: each summary says only what its evidence shows', () => {
    const probe = WIRE_PROBES.find((p) => p.name === 'notification-with-unknown-method-gets-no-reply');
    if (!probe) throw new Error('the unknown-method notification probe is missing');
    const summaries = (observations: Parameters<typeof judgeProbe>[2], binding: BackendBinding) => {
      const verdict = judgeProbe(probe, probe.steps, observations, binding);
      expect(verdict.status).toBe('fail');
      return verdict.faults.map((f) => `${f.summary} | ${f.message}`);
    };
    // per_event: the notification got no reply and its process exited 0; the request after it, in
    // a process of its own, missed the deadline. Nothing answered the notification or stopped a process.
    const perEvent = summaries(
      [
        decision(0, []),
        notified(1, 'request', {
          ok: false,
          failure: { failureClass: 'process', code: 'stdio.no-reply', detail: 'exit 0' },
        }),
        failed(2, 'deadline'),
      ],
      'stdio-per_event',
    );
    expect(perEvent).toEqual([
      'a request sent after a notification the backend cannot process was not answered like the one before it (a request got no reply within the deadline) | deadline: detail',
    ]);
    // Persistent: clean replies from two processes, so the one that got the notification ended.
    const replaced = summaries(
      [decision(0, []), notified(1, 'notify', { ok: true }), replied(2, DECIDED(2), 'evt_2', [200])],
      'stdio-persistent',
    );
    expect(replaced).toEqual([
      expect.stringMatching(
        /^a notification the backend cannot process ended the persistent backend process: a new process answered the request after it \| /,
      ),
    ]);
    // A reply: that is all it says, and it names no method the notification did not have.
    const answered = summaries(
      [
        decision(0, []),
        notified(1, 'request', {
          ok: true,
          message: { jsonrpc: '2.0', id: null, error: { code: -32601, message: 'no' } },
          raw: new Uint8Array(),
        }),
        decision(2, []),
      ],
      'stdio-per_event',
    );
    expect(answered).toEqual([
      'a notification got a reply | the backend answered the notification with a message on stdout',
    ]);
    for (const line of [...perEvent, ...replaced, ...answered])
      expect(line).not.toMatch(/, or |hooks\/observe/);
  });

  it('a persistent run served by several processes fails only when every reply was clean', () => {
    const probe: Probe = {
      requirement: 'AHP-RPC-002',
      name: 'l',
      rule: RULES.jsonRpcResponse,
      steps: [step.subject(ALLOW), step.subject(ALLOW)],
      sameProcess: true,
    };
    const one = [decision(0, []), decision(1, [])];
    expect(judgeProbe(probe, probe.steps, one, 'stdio-persistent').status).toBe('pass');
    const replaced = [decision(0, []), { ...decision(1, []), pids: [200] }];
    expect(judgeProbe(probe, probe.steps, replaced, 'stdio-persistent')).toMatchObject({
      status: 'fail',
      faults: [{ message: 'the persistent backend process was replaced during the run (PIDs 100, 200)' }],
    });
    expect(judgeProbe(probe, probe.steps, replaced, 'stdio-per_event').status).toBe('pass');
    const afterFault = [failed(0, 'stdio.framing.not-json'), { ...decision(1, []), pids: [200] }];
    expect(judgeProbe(probe, probe.steps, afterFault, 'stdio-persistent').status).toBe('blocked');
  });

  it('a deny-path case is untested when the backend did not deny the deny input', () => {
    const probe: Probe = {
      requirement: 'AHP-DEC-001',
      name: 'd',
      rule: RULES.jsonRpcResponse,
      needsDenyInput: true,
      requireDeny: true,
      steps: [step.subject(ALLOW), step.denySubject()],
    };
    expect(stepsFor(probe, false)).toHaveLength(1);
    const steps = stepsFor(probe, true);
    expect(judgeProbe(probe, steps, [decision(0, []), decision(1, [DENY])], 'http').status).toBe('pass');
    expect(judgeProbe(probe, steps, [decision(0, []), decision(1, [])], 'http')).toMatchObject({
      status: 'untested',
      reason: 'the backend did not deny the --deny-input, so the deny path was not exercised',
    });
  });
});

describe('early stop', () => {
  it('stops after a baseline without a decision or two steps in a row without a reply, never after a reply', () => {
    const probe: Probe = {
      requirement: 'AHP-RPC-002',
      name: 's',
      rule: RULES.jsonRpcResponse,
      steps: [step.baseline(ALLOW), step.subject(ALLOW), step.subject(ALLOW), step.subject(ALLOW)],
    };
    expect(runMayStop(probe, probe.steps, [failed(0, 'stdio.framing.not-json')])).toBe(true);
    expect(runMayStop(probe, probe.steps, [decision(0, [])])).toBe(false);
    expect(runMayStop(probe, probe.steps, [decision(0, []), failed(1, 'deadline')])).toBe(false);
    expect(runMayStop(probe, probe.steps, [decision(0, []), failed(1, 'deadline'), decision(2, [])])).toBe(
      false,
    );
    expect(
      runMayStop(probe, probe.steps, [decision(0, []), failed(1, 'deadline'), failed(2, 'deadline')]),
    ).toBe(true);
    // Wrong answers are still exchanges: the run goes on, so a liveness case sees every request.
    expect(runMayStop(probe, probe.steps, [decision(0, []), rpcError(1, -32602), rpcError(2, -32602)])).toBe(
      false,
    );
    expect(runMayStop(probe, probe.steps, [rpcError(0, -32602)])).toBe(true);
  });

  it('judges the steps a stopped session sent', () => {
    const steps = [step.subject(ALLOW), step.subject(ALLOW), step.subject(ALLOW)];
    const sent = [failed(0, 'stdio.framing.not-json'), failed(1, 'stdio.framing.not-json')];
    const stdio: Probe = { requirement: 'AHP-STDIO-001', name: 's', rule: RULES.stdout, steps };
    expect(judgeProbe(stdio, steps, sent, 'stdio-persistent')).toMatchObject({
      status: 'fail',
      faults: [{ step: 1 }, { step: 2 }],
    });
    const rpc: Probe = { requirement: 'AHP-RPC-001', name: 's', rule: RULES.jsonRpcResponse, steps };
    expect(judgeProbe(rpc, steps, sent, 'stdio-persistent')).toMatchObject({ status: 'blocked' });
  });
});

describe('credential echo', () => {
  const probe: Probe = {
    requirement: 'AHP-HTTP-001',
    name: 't',
    rule: RULES.jsonRpcResponse,
    noSecretEcho: true,
    steps: [step.subject(ALLOW)],
  };

  it('fails when a reply carries the token, is untested without one', () => {
    const clean = [decision(0, [DENY])];
    expect(judgeProbe(probe, probe.steps, clean, 'http', ['s3cret-token'])).toEqual({
      status: 'pass',
      faults: [],
      others: [],
    });
    const leaked = [decision(0, [{ ...DENY, reason: 'denied for Bearer s3cret-token' }])];
    expect(judgeProbe(probe, probe.steps, leaked, 'http', ['s3cret-token'])).toMatchObject({
      status: 'fail',
      faults: [{ step: 1 }],
    });
    expect(judgeProbe(probe, probe.steps, leaked, 'http')).toMatchObject({ status: 'untested' });
  });
});
