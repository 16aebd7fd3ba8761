import { describe, expect, it } from 'vitest';
import { sampleInterceptRequest, sampleToolAfter } from '../../protocol/test-samples.js';
import { detectKind, judgeFile, judgeValue } from './validate-document.js';

const enc = (text: string) => new TextEncoder().encode(text);
const registration = {
  protocolVersion: 'draft',
  hooks: [
    {
      id: 'com.example.policy',
      transport: { type: 'http', url: 'https://policy.example.com/ahp' },
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
  ],
};
const observe = {
  jsonrpc: '2.0',
  method: 'hooks/observe',
  params: { protocolVersion: 'draft', event: sampleToolAfter() },
};
const deny = {
  jsonrpc: '2.0',
  id: 'evt_1',
  result: { protocolVersion: 'draft', effects: [{ type: 'deny', reason: 'no' }] },
};

describe('detectKind', () => {
  it('tells every kind apart by content', () => {
    expect(detectKind(registration)).toBe('registration document');
    expect(detectKind(sampleInterceptRequest())).toBe('intercept request');
    expect(detectKind(observe)).toBe('observe notification');
    expect(detectKind({ jsonrpc: '2.0', id: 'd', method: 'hooks/capabilities', params: {} })).toBe(
      'capabilities request',
    );
    expect(detectKind({ jsonrpc: '2.0', id: 'd', result: { protocolVersion: 'draft', manifest: {} } })).toBe(
      'capabilities response',
    );
    expect(detectKind(deny)).toBe('intercept response');
    expect(detectKind({ jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'x' } })).toBe(
      'intercept response',
    );
    expect(detectKind([deny])).toBe('JSON-RPC message');
    expect(detectKind({ jsonrpc: '2.0', method: 'other' })).toBe('JSON-RPC message');
    expect(detectKind(42)).toBe('unrecognised JSON');
    expect(detectKind({ hello: 1 })).toBe('unrecognised JSON');
  });
});

describe('judgeValue', () => {
  it('accepts valid documents and reports each violation with its path and requirement', () => {
    expect(judgeValue(registration).violations).toEqual([]);
    expect(judgeValue(sampleInterceptRequest()).violations).toEqual([]);
    expect(judgeValue(observe).violations).toEqual([]);
    expect(judgeValue(deny).violations).toEqual([]);
    const bad = structuredClone(registration);
    delete (bad.hooks[0]?.subscriptions[0] as Record<string, unknown>).failurePolicy;
    expect(judgeValue(bad).violations).toEqual([
      expect.objectContaining({
        path: '$.hooks[0].subscriptions[0].failurePolicy',
        requirement: expect.stringMatching(/^AHP/),
      }),
    ]);
    expect(judgeValue({ ...observe, id: 'x' }).violations).toEqual([
      expect.objectContaining({ path: '$.id', requirement: 'AHP-RPC-002' }),
    ]);
    expect(judgeValue([deny]).violations[0]).toMatchObject({ path: '$', requirement: 'AHP-RPC-001' });
    expect(judgeValue({ jsonrpc: '2.0', method: 'other' }).violations[0]).toMatchObject({
      path: '$.method',
      requirement: 'AHP-RPC-002',
    });
    expect(judgeValue({ hello: 1 }).violations[0]?.message).toMatch(/neither a registration document/);
  });

  it('judges a response at the boundary of the request with its id', () => {
    const requests = new Map();
    judgeValue(sampleInterceptRequest(), requests);
    const ask = {
      jsonrpc: '2.0',
      id: 'evt_1',
      result: { protocolVersion: 'draft', effects: [{ type: 'ask' }] },
    };
    // `ask` is a well-shaped effect, but the request advertised only deny.
    expect(judgeValue(ask).violations).toEqual([]);
    expect(judgeValue(ask, requests).violations.length).toBeGreaterThan(0);
  });
});

describe('judgeFile', () => {
  it('reads a whole JSON file as one document, pretty-printed or not', () => {
    expect(judgeFile(enc(JSON.stringify(registration, null, 2)), 'reg.json')).toEqual([
      { kind: 'registration document', violations: [], warnings: [] },
    ]);
  });

  it('reads NDJSON line by line with framing faults, with or without a final newline', () => {
    const text = [JSON.stringify(sampleInterceptRequest()), JSON.stringify(deny), '{"jsonrpc":', ''].join(
      '\n',
    );
    const items = judgeFile(enc(text), 'transcript.jsonl');
    expect(items.map((i) => [i.line, i.kind, i.violations.length])).toEqual([
      [1, 'intercept request', 0],
      [2, 'intercept response', 0],
      [3, 'NDJSON frame', 1],
    ]);
    expect(items[2]?.violations[0]).toMatchObject({ requirement: 'AHP-STDIO-001' });
    expect(judgeFile(enc(JSON.stringify(deny)), 'one.ndjson')).toHaveLength(1);
    const unsuffixed = judgeFile(
      enc(`${JSON.stringify(deny)}\n${JSON.stringify(observe)}\n`),
      'messages.txt',
    );
    expect(unsuffixed.map((i) => i.kind)).toEqual(['intercept response', 'observe notification']);
  });

  it('reports invalid UTF-8 and non-JSON as violations, not crashes', () => {
    expect(judgeFile(new Uint8Array([0x7b, 0xff, 0x7d]), 'x.json')[0]?.violations[0]?.message).toMatch(
      /not valid UTF-8/,
    );
    expect(judgeFile(enc('nope'), 'x.json')[0]?.violations[0]?.message).toMatch(/^not JSON/);
    expect(judgeFile(new Uint8Array([0x7b, 0xff, 0x7d, 0x0a]), 'x.jsonl')[0]?.violations[0]).toMatchObject({
      requirement: 'AHP-STDIO-001',
    });
  });
});
