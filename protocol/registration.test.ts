import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from './json.js';
import { validateRegistration } from './registration.js';

type Doc = JsonObject & { hooks: Array<JsonObject & { subscriptions: JsonObject[]; transport: JsonObject }> };

/** A valid document: an HTTP interceptor with bearer auth, and a stdio interceptor plus observer. */
function doc(): Doc {
  return {
    protocolVersion: 'draft',
    hooks: [
      {
        id: 'com.example.policy',
        transport: { type: 'http', url: 'https://policy.example.test/ahp' },
        authentication: { type: 'bearer', tokenEnv: 'AHP_TOKEN' },
        subscriptions: [
          {
            events: ['tool.before'],
            mode: 'intercept',
            timeoutMs: 750,
            failurePolicy: 'fail-closed',
            content: { default: 'metadata' },
          },
        ],
      },
      {
        id: 'com.example.local_review',
        transport: { type: 'stdio', command: '/usr/bin/review', args: ['serve'], lifecycle: 'persistent' },
        subscriptions: [
          {
            events: ['tool.*'],
            mode: 'intercept',
            timeoutMs: 500,
            failurePolicy: 'fail-open',
            content: { default: 'omit', text: 'body' },
          },
          { events: ['*'], mode: 'observe', includeNative: false, content: { default: 'metadata' } },
        ],
      },
    ],
  };
}

function violations(d: unknown): string[] {
  const check = validateRegistration(d);
  return check.ok ? [] : check.violations.map((v) => `${v.requirement} ${v.path}`);
}

const edit = (f: (d: Doc) => void): Doc => {
  const d = doc();
  f(d);
  return d;
};
const sub0 = (d: Doc) => d.hooks[0]!.subscriptions[0]!;
const obs = (d: Doc) => d.hooks[1]!.subscriptions[1]!;

describe('validateRegistration: valid documents', () => {
  it('returns the typed registration with defaults applied', () => {
    const check = validateRegistration(doc());
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.warnings).toEqual([]);
    const [http, stdio] = check.registration.hooks;
    expect(http?.transport).toEqual({ type: 'http', url: 'https://policy.example.test/ahp' });
    expect(http?.authentication).toEqual({ type: 'bearer', tokenEnv: 'AHP_TOKEN' });
    expect(http?.subscriptions[0]).toEqual({
      mode: 'intercept',
      events: ['tool.before'],
      timeoutMs: 750,
      failurePolicy: 'fail-closed',
      content: { default: 'metadata' },
    });
    expect(stdio?.subscriptions[1]).toEqual({
      mode: 'observe',
      events: ['*'],
      includeNative: false,
      content: { default: 'metadata' },
    });
  });

  it('defaults stdio args to [] and keeps cwd', () => {
    const d = edit(
      (x) =>
        (x.hooks[1]!.transport = { type: 'stdio', command: 'review', lifecycle: 'per_event', cwd: '/srv' }),
    );
    const check = validateRegistration(d);
    expect(check.ok && check.registration.hooks[1]?.transport).toEqual({
      type: 'stdio',
      command: 'review',
      args: [],
      lifecycle: 'per_event',
      cwd: '/srv',
    });
  });

  it('tolerates unknown fields, returning them as warnings (AHP-CORE-003)', () => {
    const d = edit((x) => {
      x.comment = 'hi';
      sub0(x).priority = 1;
      x.hooks[0]!.transport.retries = 2;
    });
    const check = validateRegistration(d);
    expect(check.ok).toBe(true);
    expect(check.ok && check.warnings.map((w) => `${w.requirement} ${w.path}`)).toEqual([
      'AHP-CORE-003 $.comment',
      'AHP-CORE-003 $.hooks[0].transport.retries',
      'AHP-CORE-003 $.hooks[0].subscriptions[0].priority',
    ]);
  });

  it('accepts oauth, tokenRef and the optional subscription fields', () => {
    const d = edit((x) => {
      x.hooks[0]!.authentication = {
        type: 'oauth',
        issuer: 'https://auth.example.test',
        resource: 'https://policy.example.test/ahp',
        clientId: 'harness',
        flow: 'client_credentials',
        scopes: ['ahp'],
        clientSecretRef: 'vault:ahp',
      };
      Object.assign(sub0(x), {
        id: 'sub-1',
        scope: 'managed',
        disableable: false,
        filters: { toolKinds: ['shell'] },
      });
      obs(x).upload = { endpoint: 'https://upload.example.test', timeoutMs: 1000, maxBytes: 1_000_000 };
    });
    expect(violations(d)).toEqual([]);
    expect(
      violations(edit((x) => (x.hooks[0]!.authentication = { type: 'bearer', tokenRef: 'vault:tok' }))),
    ).toEqual([]);
  });
});

describe('validateRegistration: violations', () => {
  it.each<[string, (d: Doc) => void, string[]]>([
    ['a wrong protocolVersion', (d) => (d.protocolVersion = '0.1'), ['AHP-REG-001 $.protocolVersion']],
    ['empty hooks', (d) => (d.hooks = []), ['AHP-REG-001 $.hooks']],
    ['a non-reverse-DNS id', (d) => (d.hooks[0]!.id = 'policy'), ['AHP-REG-001 $.hooks[0].id']],
    ['a duplicate id', (d) => (d.hooks[1]!.id = 'com.example.policy'), ['AHP-REG-001 $.hooks[1].id']],
    [
      'contentReceiver',
      (d) => (d.hooks[0]!.contentReceiver = {}),
      ['AHP-REG-001 $.hooks[0].contentReceiver'],
    ],
    ['no subscriptions', (d) => (d.hooks[0]!.subscriptions = []), ['AHP-REG-001 $.hooks[0].subscriptions']],
    [
      'an unknown transport',
      (d) => (d.hooks[0]!.transport = { type: 'grpc' }),
      ['AHP-REG-001 $.hooks[0].transport.type', 'AHP-AUTH-001 $.hooks[0].authentication'],
    ],
    [
      'a relative url',
      (d) => (d.hooks[0]!.transport.url = '/ahp'),
      ['AHP-HTTP-001 $.hooks[0].transport.url'],
    ],
    [
      'an empty command',
      (d) => (d.hooks[1]!.transport.command = ''),
      ['AHP-STDIO-001 $.hooks[1].transport.command'],
    ],
    [
      'a shell-string args',
      (d) => (d.hooks[1]!.transport.args = 'serve --x'),
      ['AHP-STDIO-001 $.hooks[1].transport.args'],
    ],
    [
      'no lifecycle',
      (d) => delete d.hooks[1]!.transport.lifecycle,
      ['AHP-STDIO-001 $.hooks[1].transport.lifecycle'],
    ],
    [
      'auth on stdio',
      (d) => (d.hooks[1]!.authentication = { type: 'bearer', tokenEnv: 'T' }),
      ['AHP-AUTH-001 $.hooks[1].authentication'],
    ],
    [
      'a literal token',
      (d) => ((d.hooks[0]!.authentication as JsonObject).token = 's3cret'),
      ['AHP-SEC-001 $.hooks[0].authentication.token'],
    ],
    [
      'both tokenEnv and tokenRef',
      (d) => ((d.hooks[0]!.authentication as JsonObject).tokenRef = 'r'),
      ['AHP-REG-001 $.hooks[0].authentication'],
    ],
    [
      'neither tokenEnv nor tokenRef',
      (d) => (d.hooks[0]!.authentication = { type: 'bearer' }),
      ['AHP-REG-001 $.hooks[0].authentication'],
    ],
    [
      'a bad tokenEnv',
      (d) => (d.hooks[0]!.authentication = { type: 'bearer', tokenEnv: 'AHP-TOKEN' }),
      ['AHP-REG-001 $.hooks[0].authentication.tokenEnv'],
    ],
    [
      'an extra bearer key',
      (d) => ((d.hooks[0]!.authentication as JsonObject).header = 'X'),
      ['AHP-REG-001 $.hooks[0].authentication.header'],
    ],
    [
      'mtls',
      (d) => (d.hooks[0]!.authentication = { type: 'mtls', cert: 'c' }),
      ['AHP-AUTH-001 $.hooks[0].authentication.type'],
    ],
    [
      'workload',
      (d) => (d.hooks[0]!.authentication = { type: 'workload' }),
      ['AHP-AUTH-001 $.hooks[0].authentication.type'],
    ],
    [
      'no failurePolicy',
      (d) => delete sub0(d).failurePolicy,
      ['AHP-FAIL-001 $.hooks[0].subscriptions[0].failurePolicy'],
    ],
    [
      'an unknown failurePolicy',
      (d) => (sub0(d).failurePolicy = 'fail-safe'),
      ['AHP-FAIL-001 $.hooks[0].subscriptions[0].failurePolicy'],
    ],
    ['no timeoutMs', (d) => delete sub0(d).timeoutMs, ['AHP-FAIL-002 $.hooks[0].subscriptions[0].timeoutMs']],
    ['timeoutMs 0', (d) => (sub0(d).timeoutMs = 0), ['AHP-FAIL-002 $.hooks[0].subscriptions[0].timeoutMs']],
    [
      'negative timeoutMs',
      (d) => (sub0(d).timeoutMs = -5),
      ['AHP-FAIL-002 $.hooks[0].subscriptions[0].timeoutMs'],
    ],
    [
      'fractional timeoutMs',
      (d) => (sub0(d).timeoutMs = 1.5),
      ['AHP-FAIL-002 $.hooks[0].subscriptions[0].timeoutMs'],
    ],
    [
      'string timeoutMs',
      (d) => (sub0(d).timeoutMs = '750'),
      ['AHP-FAIL-002 $.hooks[0].subscriptions[0].timeoutMs'],
    ],
    [
      'observe with failurePolicy',
      (d) => (obs(d).failurePolicy = 'fail-open'),
      ['AHP-FAIL-001 $.hooks[1].subscriptions[1].failurePolicy'],
    ],
    [
      'observe with timeoutMs',
      (d) => (obs(d).timeoutMs = 100),
      ['AHP-FAIL-001 $.hooks[1].subscriptions[1].timeoutMs'],
    ],
    [
      'intercept on an observation-only event',
      (d) => (sub0(d).events = ['turn.end']),
      ['AHP-REG-002 $.hooks[0].subscriptions[0].events[0]'],
    ],
    [
      'an unknown event',
      (d) => (sub0(d).events = ['tool.error']),
      ['AHP-REG-002 $.hooks[0].subscriptions[0].events[0]'],
    ],
    [
      'a matcher pattern',
      (d) => (sub0(d).events = ['tool.permission.*']),
      ['AHP-REG-002 $.hooks[0].subscriptions[0].events[0]'],
    ],
    [
      'duplicate events',
      (d) => (sub0(d).events = ['tool.before', 'tool.before']),
      ['AHP-REG-002 $.hooks[0].subscriptions[0].events[1]'],
    ],
    ['empty events', (d) => (sub0(d).events = []), ['AHP-REG-002 $.hooks[0].subscriptions[0].events']],
    ['a bad mode', (d) => (sub0(d).mode = 'block'), ['AHP-REG-001 $.hooks[0].subscriptions[0].mode']],
    ['no content', (d) => delete obs(d).content, ['AHP-CONTENT-002 $.hooks[1].subscriptions[1].content']],
    [
      'content without default',
      (d) => (sub0(d).content = { text: 'body' }),
      ['AHP-CONTENT-002 $.hooks[0].subscriptions[0].content.default'],
    ],
    [
      'a bad content value',
      (d) => (sub0(d).content = { default: 'all' }),
      ['AHP-CONTENT-002 $.hooks[0].subscriptions[0].content.default'],
    ],
    [
      'managed but disableable',
      (d) => (sub0(d).scope = 'managed'),
      ['AHP-REG-001 $.hooks[0].subscriptions[0].disableable'],
    ],
    [
      'a bad upload',
      (d) => (obs(d).upload = { endpoint: 'ftp://x', timeoutMs: 0, maxBytes: 1 }),
      [
        'AHP-CONTENT-002 $.hooks[1].subscriptions[1].upload.endpoint',
        'AHP-CONTENT-002 $.hooks[1].subscriptions[1].upload.timeoutMs',
      ],
    ],
  ])('rejects %s', (_name, f, expected) => {
    expect(violations(edit(f))).toEqual(expected);
  });

  it('warns about intercept wildcards that select nothing, unknown families and unusual timeouts', () => {
    const d = edit((x) => {
      sub0(x).events = ['hook.*', 'robot.*'];
      sub0(x).timeoutMs = 60_000;
    });
    const check = validateRegistration(d);
    expect(check.ok && check.warnings.map((w) => `${w.requirement} ${w.path}`)).toEqual([
      'AHP-REG-002 $.hooks[0].subscriptions[0].events[0]',
      'AHP-REG-002 $.hooks[0].subscriptions[0].events[1]',
      'AHPX-DL-003 $.hooks[0].subscriptions[0].timeoutMs',
    ]);
  });

  it('observe accepts observation-only events and wildcards', () => {
    expect(violations(edit((d) => (obs(d).events = ['turn.end', 'hook.failure', 'model.*'])))).toEqual([]);
  });

  it('reports all violations at once', () => {
    const d = edit((x) => {
      x.protocolVersion = 'v1';
      delete sub0(x).failurePolicy;
      obs(x).timeoutMs = 10;
    });
    expect(violations(d)).toEqual([
      'AHP-REG-001 $.protocolVersion',
      'AHP-FAIL-001 $.hooks[0].subscriptions[0].failurePolicy',
      'AHP-FAIL-001 $.hooks[1].subscriptions[1].timeoutMs',
    ]);
  });

  it.each<[string, (d: Doc) => void, string]>([
    [
      'absent',
      (d) => delete d.hooks[1]!.transport.lifecycle,
      'lifecycle is required: persistent or per_event',
    ],
    [
      'an unknown value',
      (d) => (d.hooks[1]!.transport.lifecycle = 'forever'),
      'lifecycle must be persistent or per_event, not "forever"',
    ],
  ])('names a stdio lifecycle that is %s as what it is', (_name, change, message) => {
    const check = validateRegistration(edit(change));
    expect(check.ok ? [] : check.violations.map((v) => v.message)).toEqual([message]);
  });

  it.each<[string, JsonValue]>([
    ['null', null],
    ['an array', []],
    ['a string', 'draft'],
  ])('rejects %s as a document', (_name, value) => {
    expect(violations(value)).toEqual(['AHP-REG-001 $']);
  });

  it('never throws on hostile shapes', () => {
    const hostile = {
      protocolVersion: 'draft',
      hooks: [null, 1, { subscriptions: [null, { events: [1, null] }] }],
    };
    expect(violations(hostile).length).toBeGreaterThan(3);
  });
});
