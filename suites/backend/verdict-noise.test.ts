// Verdicts around noise on stdout and processes that exit: a log line fails only the cases that
// judge stdout, is never a reply to a notification, and a process that dies on a valid request
// fails the requirement that request exercises.
import { describe, expect, it } from 'vitest';
import { step, stepsFor, type Probe } from './probe.js';
import { WIRE_PROBES } from './probes-wire.js';
import { RULES } from './rules.js';
import { decision, failed, notified, rpcError, withNoise } from './test-observations.js';
import { judgeProbe } from './verdict.js';

const ALLOW = { send: 'intercept', input: 'allow' } as const;

describe('noise on stdout and processes that exit', () => {
  const probe = (name: string) => {
    const found = WIRE_PROBES.find((p) => p.name === name);
    if (!found) throw new Error(name);
    return found;
  };
  const stdout = probe('stdout-carries-one-protocol-line-per-message');
  const notification = probe('notification-gets-no-reply');
  const rpc = probe('reply-is-one-json-rpc-object-with-the-request-id');
  const LOG = 'handled request evt_0';

  it('a noise line fails only the case that judges stdout; every other case reads past it and is judged', () => {
    const steps = stepsFor(stdout, false);
    const run = [
      withNoise(decision(0, []), LOG),
      decision(1, []),
      notified(2, 'notify', { ok: true }),
      rpcError(3, -32601),
    ];
    const judged = judgeProbe(stdout, steps, run, 'stdio-persistent');
    expect(judged).toMatchObject({
      status: 'fail',
      faults: [{ requirement: 'AHP-STDIO-001', step: 1, rule: RULES.stdout, way: 'non-protocol-line' }],
    });
    const wire = judgeProbe(rpc, stepsFor(rpc, false), run.slice(0, 2), 'stdio-persistent');
    expect(wire).toMatchObject({ status: 'pass', others: [{ requirement: 'AHP-STDIO-001', step: 1 }] });
  });

  it('a late log line that arrives after a notification is not blamed on the notification', () => {
    const late = [decision(0, []), notified(1, 'notify', { ok: true }, [], [LOG]), decision(2, [])];
    expect(judgeProbe(notification, notification.steps, late, 'stdio-persistent')).toMatchObject({
      status: 'pass',
      others: [{ requirement: 'AHP-STDIO-001', step: 2 }],
    });
    // A JSON-RPC response is a reply, whenever it comes: the notification case fails for it, and
    // the stdout case does not count the output reported by the next request against stdout.
    const reply = '{"jsonrpc":"2.0","id":null,"result":{}}';
    const answered = [
      decision(0, []),
      decision(1, []),
      notified(2, 'notify', { ok: true }, [reply]),
      failed(3, 'stdio.unsolicited-output'),
    ];
    expect(judgeProbe(stdout, stepsFor(stdout, false), answered, 'stdio-persistent')).toMatchObject({
      status: 'pass',
    });
    const loud = [
      decision(0, []),
      notified(1, 'notify', { ok: true }, [reply]),
      failed(2, 'stdio.unsolicited-output'),
    ];
    expect(judgeProbe(notification, notification.steps, loud, 'stdio-persistent')).toMatchObject({
      status: 'fail',
      faults: [{ requirement: 'AHP-RPC-002', rule: RULES.notificationSilence }],
    });
  });

  it('a backend that exits on a valid request fails the requirement that request exercises', () => {
    const unknownFields: Probe = {
      requirement: 'AHP-CORE-003',
      name: 'u',
      rule: RULES.unknownFields,
      steps: [step.baseline(ALLOW), step.variant({ ...ALLOW, unknownFieldsAt: ['params'] })],
      sameDecision: [[0, 1]],
    };
    const crash = [decision(0, []), failed(1, 'stdio.exit-before-reply', 'the backend exited with code 1')];
    const verdict = judgeProbe(unknownFields, unknownFields.steps, crash, 'stdio-persistent');
    expect(verdict).toMatchObject({
      status: 'fail',
      faults: [
        {
          requirement: 'AHP-CORE-003',
          rule: RULES.unknownFields,
          way: 'stdio.lifecycle#exit-before-reply',
          message: expect.stringMatching(/\(AHP-STDIO-001 symptom\)$/),
        },
      ],
    });
    // A plain request it dies on fails the stdout case (the lifecycle), and blocks the others.
    const dies = [failed(0, 'stdio.exit-before-reply'), failed(1, 'stdio.exit-before-reply')];
    expect(judgeProbe(stdout, stepsFor(stdout, false), dies, 'stdio-persistent')).toMatchObject({
      status: 'fail',
      faults: [{ requirement: 'AHP-STDIO-001', rule: RULES.stdioLifecycle }, { step: 2 }],
    });
    expect(judgeProbe(rpc, stepsFor(rpc, false), dies, 'stdio-persistent')).toMatchObject({
      status: 'blocked',
      by: { requirement: 'AHP-STDIO-001', rule: RULES.stdioLifecycle, step: 1 },
    });
  });
});
