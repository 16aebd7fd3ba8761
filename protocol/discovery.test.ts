import { describe, expect, it } from 'vitest';
import { validateCapabilitiesRequest, validateCapabilitiesResponse } from './discovery.js';
import type { JsonObject } from './json.js';

const codes = (vs: { requirement: string; path: string }[]) => vs.map((v) => `${v.requirement} ${v.path}`);

const manifest = (): JsonObject => ({
  events: [{ event: 'tool.before', modes: ['intercept'], capabilities: { effects: ['deny'] } }],
  gaps: [],
  transports: ['stdio'],
  authentication: [],
  toolPaths: ['native'],
  contentCategories: ['text'],
  limits: { minTimeoutMs: 100 },
  managedPolicy: { scopes: ['user'], disableable: true },
  correlationIdentityFields: ['id', 'source'],
});
const response = (result: JsonObject) => ({ jsonrpc: '2.0', id: 'disc_1', result });

describe('validateCapabilitiesRequest', () => {
  it('accepts a request carrying only the version', () => {
    const req = {
      jsonrpc: '2.0',
      id: 'disc_1',
      method: 'hooks/capabilities',
      params: { protocolVersion: 'draft' },
    };
    expect(validateCapabilitiesRequest(req)).toEqual([]);
  });

  it('rejects a notification, another method, a wrong version and a session or event', () => {
    const bad = {
      jsonrpc: '2.0',
      method: 'hooks/intercept',
      params: { protocolVersion: '0.1', session: {}, event: {} },
    };
    expect(codes(validateCapabilitiesRequest(bad))).toEqual([
      'AHP-RPC-002 $.id',
      'AHP-RPC-002 $.method',
      'AHP-VER-001 $.params.protocolVersion',
      'AHP-RPC-001 $.params.event',
      'AHP-RPC-001 $.params.session',
    ]);
  });
});

describe('validateCapabilitiesResponse', () => {
  it('accepts a full manifest and an error response', () => {
    expect(
      validateCapabilitiesResponse(response({ protocolVersion: 'draft', manifest: manifest() })),
    ).toEqual([]);
    expect(
      validateCapabilitiesResponse({ jsonrpc: '2.0', id: 'd', error: { code: -32001, message: 'old' } }),
    ).toEqual([]);
  });

  it('requires every manifest key and forbids identity and effects', () => {
    const { limits: _l, gaps: _g, ...partial } = manifest();
    expect(
      codes(validateCapabilitiesResponse(response({ protocolVersion: 'draft', manifest: partial }))),
    ).toEqual(['AHP-RPC-001 $.result.manifest.gaps', 'AHP-RPC-001 $.result.manifest.limits']);
    const mixed = {
      protocolVersion: 'draft',
      effects: [],
      manifest: { ...manifest(), identity: { name: 'x' } },
    };
    expect(codes(validateCapabilitiesResponse(response(mixed)))).toEqual([
      'AHP-RPC-001 $.result.effects',
      'AHP-RPC-001 $.result.manifest.identity',
    ]);
    expect(codes(validateCapabilitiesResponse(response({ protocolVersion: 'draft' })))).toEqual([
      'AHP-RPC-001 $.result.manifest',
    ]);
  });
});
