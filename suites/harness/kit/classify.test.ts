import { describe, expect, it } from 'vitest';
import type { Behaviour } from '../../../mock-backend/index.js';
import { classifyBehaviour, UnclassifiedBehaviour, type Provoked } from './classify.js';
import type { HarnessTransport } from './timing.js';

const at = (transport: HarnessTransport, timeoutMs = 1000, late = false) => ({ transport, timeoutMs, late });
const classes = (p: Provoked) => (p.kind === 'failure' ? p.classes : p.kind);

describe('classifyBehaviour', () => {
  it.each<[Behaviour, HarnessTransport, string[] | string]>([
    [{ kind: 'respond' }, 'http', 'answer'],
    [{ kind: 'deny', reason: 'no' }, 'stdio-per_event', 'deny'],
    [{ kind: 'hang' }, 'stdio-persistent', ['deadline-exceeded']],
    [{ kind: 'malformed-json' }, 'http', ['malformed']],
    [{ kind: 'malformed-utf8' }, 'stdio-persistent', ['malformed']],
    [{ kind: 'pretty' }, 'stdio-persistent', ['malformed']],
    [{ kind: 'pretty' }, 'http', 'answer'],
    [{ kind: 'mismatched-id', id: 'x' }, 'http', ['id-mismatch']],
    [{ kind: 'mismatched-id', id: 'x' }, 'stdio-per_event', ['id-mismatch']],
    [{ kind: 'mismatched-id', id: 'x' }, 'stdio-persistent', ['id-mismatch', 'deadline-exceeded']],
    [{ kind: 'rpc-error', code: -32004 }, 'http', ['jsonrpc-error']],
    // Both classes fit a reply that is a JSON-RPC error saying the version or event is unsupported.
    [{ kind: 'rpc-error', code: -32001 }, 'http', ['unsupported', 'jsonrpc-error']],
    [{ kind: 'rpc-error', code: -32002 }, 'stdio-persistent', ['unsupported', 'jsonrpc-error']],
    [{ kind: 'respond', protocolVersion: '1900-01-01' }, 'http', ['unsupported']],
    [{ kind: 'respond', omit: ['effects'] }, 'http', ['missing-fields']],
    [{ kind: 'respond', effects: [{ type: 'teleport' }] }, 'http', ['invalid-effects']],
    [{ kind: 'respond', effects: [{ type: 'deny', reason: 'x', extra: 1 }] }, 'http', ['invalid-effects']],
    [{ kind: 'respond', effects: { type: 'deny' } }, 'http', ['invalid-effects', 'missing-fields']],
    [{ kind: 'reset' }, 'http', ['connection']],
    [{ kind: 'reset' }, 'stdio-persistent', ['process', 'connection']],
    [{ kind: 'silent' }, 'stdio-per_event', ['process']],
    [{ kind: 'silent' }, 'stdio-persistent', ['deadline-exceeded']],
    [{ kind: 'silent' }, 'http', ['http-status']],
    [{ kind: 'exit', code: 3 }, 'stdio-persistent', ['process']],
    [{ kind: 'exit', code: 0 }, 'stdio-per_event', ['process']],
    [{ kind: 'exit', code: 0, reply: { kind: 'respond' } }, 'stdio-per_event', 'answer'],
    [{ kind: 'exit', code: 2, reply: { kind: 'respond' } }, 'stdio-per_event', ['process']],
    [{ kind: 'signal', signal: 'SIGKILL' }, 'stdio-per_event', ['process']],
    [{ kind: 'http-status', status: 503 }, 'http', ['http-status']],
    [{ kind: 'http-redirect', location: '/x' }, 'http', ['http-status']],
    [{ kind: 'http-unauthorized' }, 'http', ['auth', 'http-status']],
    [{ kind: 'wrong-content-type' }, 'http', ['malformed']],
    [
      { kind: 'sequence', steps: [{ kind: 'rpc-error', code: -32003 }, { kind: 'respond' }] },
      'http',
      ['jsonrpc-error'],
    ],
  ])('%j over %s is %j', (behaviour, transport, expected) => {
    expect(classes(classifyBehaviour(behaviour, at(transport)))).toEqual(expected);
  });

  it.each<[Behaviour, HarnessTransport, string]>([
    // The stdio mock writes nothing for `silent` and exits only once stdin reaches EOF.
    [
      { kind: 'silent' },
      'stdio-per_event',
      'the per_event backend reads its message, writes no reply and exits 0 at stdin EOF',
    ],
    [{ kind: 'silent' }, 'stdio-persistent', 'the persistent backend reads the request and never answers'],
    [{ kind: 'exit', code: 0 }, 'stdio-per_event', 'the backend exits with code 0 without a reply'],
    [
      { kind: 'exit', code: 2, reply: { kind: 'respond' } },
      'stdio-per_event',
      'the backend replies, then exits with code 2',
    ],
  ])('says what the mock does with %j over %s', (behaviour, transport, because) => {
    expect(classifyBehaviour(behaviour, at(transport)).because).toBe(because);
  });

  it('judges a delay against the deadline, and refuses a race', () => {
    const late = classifyBehaviour({ kind: 'delay', ms: 1500, then: { kind: 'respond' } }, at('http', 1000));
    expect(classes(late)).toEqual(['deadline-exceeded', 'late-response']);
    const early = classifyBehaviour({ kind: 'delay', ms: 100, then: { kind: 'deny' } }, at('http', 1000));
    expect(early.kind).toBe('deny');
    expect(() =>
      classifyBehaviour({ kind: 'delay', ms: 900, then: { kind: 'respond' } }, at('http', 1000)),
    ).toThrow(UnclassifiedBehaviour);
  });

  it('a late step is a deadline failure whatever the behaviour', () => {
    expect(classes(classifyBehaviour({ kind: 'deny' }, at('http', 400, true)))).toEqual([
      'deadline-exceeded',
      'late-response',
    ]);
  });

  it('names the unadvertised effect types, and only when advertising could change the verdict', () => {
    const unadvertised = classifyBehaviour(
      { kind: 'respond', effects: [{ type: 'return', value: 1 }] },
      at('http'),
    );
    expect(unadvertised).toMatchObject({
      kind: 'failure',
      classes: ['invalid-effects'],
      unadvertised: ['return'],
    });
    const unknown = classifyBehaviour({ kind: 'respond', effects: [{ type: 'teleport' }] }, at('http'));
    expect(unknown).not.toHaveProperty('unadvertised');
  });

  it('keeps the deny reason of an explicit deny', () => {
    expect(classifyBehaviour({ kind: 'deny', reason: 'Nope.' }, at('http'))).toMatchObject({
      reason: 'Nope.',
    });
    expect(
      classifyBehaviour({ kind: 'respond', effects: [{ type: 'deny', reason: 'Inline.' }] }, at('http')),
    ).toMatchObject({ kind: 'deny', reason: 'Inline.' });
  });

  it('refuses behaviours without a fixed meaning', () => {
    for (const b of [
      { kind: 'raw', chunks: [] },
      { kind: 'twice' },
      { kind: 'probability', p: 0.5, behaviour: { kind: 'hang' }, otherwise: { kind: 'respond' } },
    ] as Behaviour[]) {
      expect(() => classifyBehaviour(b, at('stdio-persistent'))).toThrow(UnclassifiedBehaviour);
    }
  });
});
