import { validateExtensions } from './events.js';
import { childPath, isJsonObject, type JsonValue, type Violation } from './json.js';
import { checkRequestEnvelope, checkResponseEnvelope } from './jsonrpc.js';
import { CAPABILITIES_METHOD, PROTOCOL_VERSION } from './wire-types.js';

const MANIFEST_KEYS = [
  'events',
  'gaps',
  'transports',
  'authentication',
  'toolPaths',
  'contentCategories',
  'limits',
  'managedPolicy',
  'correlationIdentityFields',
] as const;

/** Validates a `hooks/capabilities` discovery request: `params` holds the version and no session or event. */
export function validateCapabilitiesRequest(
  value: JsonValue,
  protocolVersion: string = PROTOCOL_VERSION,
): Violation[] {
  const env = checkRequestEnvelope(value);
  if (env.kind === 'invalid') return env.violations;
  const out: Violation[] = [];
  if (env.kind !== 'request')
    out.push({ path: '$.id', message: 'discovery is a request and needs an id', requirement: 'AHP-RPC-002' });
  if (env.method !== CAPABILITIES_METHOD) {
    out.push({
      path: '$.method',
      message: `method must be "${CAPABILITIES_METHOD}"`,
      requirement: 'AHP-RPC-002',
    });
  }
  const params = env.params;
  if (!isJsonObject(params))
    return [...out, { path: '$.params', message: 'params must be an object', requirement: 'AHP-RPC-001' }];
  if (params.protocolVersion !== protocolVersion) {
    out.push({
      path: '$.params.protocolVersion',
      message: `protocolVersion must be "${protocolVersion}"`,
      requirement: 'AHP-VER-001',
    });
  }
  for (const key of ['event', 'session'] as const) {
    if (key in params)
      out.push({
        path: childPath('$.params', key),
        message: 'discovery carries no session or event',
        requirement: 'AHP-RPC-001',
      });
  }
  return out;
}

/** Validates a discovery response: a `{protocolVersion, manifest}` result whose manifest has every required key. */
export function validateCapabilitiesResponse(
  value: JsonValue,
  protocolVersion: string = PROTOCOL_VERSION,
): Violation[] {
  const env = checkResponseEnvelope(value);
  if (env.kind === 'invalid') return env.violations;
  if (env.kind === 'error') return [];
  const result = env.result;
  if (!isJsonObject(result))
    return [{ path: '$.result', message: 'result must be an object', requirement: 'AHP-RPC-001' }];
  const out: Violation[] = [];
  if (result.protocolVersion !== protocolVersion) {
    out.push({
      path: '$.result.protocolVersion',
      message: `protocolVersion must be "${protocolVersion}"`,
      requirement: 'AHP-VER-001',
    });
  }
  if ('effects' in result) {
    out.push({
      path: '$.result.effects',
      message: 'discovery and interception results are never combined',
      requirement: 'AHP-RPC-001',
    });
  }
  out.push(...validateExtensions(result.extensions, '$.result.extensions'));
  const manifest = result.manifest;
  if (!isJsonObject(manifest))
    return [
      ...out,
      { path: '$.result.manifest', message: 'manifest is required', requirement: 'AHP-RPC-001' },
    ];
  for (const key of MANIFEST_KEYS) {
    if (!(key in manifest)) {
      out.push({
        path: childPath('$.result.manifest', key),
        message: `manifest.${key} is required`,
        requirement: 'AHP-RPC-001',
      });
    }
  }
  if ('identity' in manifest) {
    out.push({
      path: '$.result.manifest.identity',
      message: 'a manifest never carries identity',
      requirement: 'AHP-RPC-001',
    });
  }
  if ('events' in manifest && !Array.isArray(manifest.events)) {
    out.push({
      path: '$.result.manifest.events',
      message: 'manifest.events must be an array',
      requirement: 'AHP-RPC-001',
    });
  }
  return out;
}
