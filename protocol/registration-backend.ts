import { isJsonObject, childPath, type JsonValue } from './json.js';
import type { Findings } from './registration-findings.js';

const REG1 = 'AHP-REG-001';
const AUTH = 'AHP-AUTH-001';
const TOKEN_ENV = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Fields that would put a secret into configuration; revision "0.1" named these explicitly.
const LITERAL_SECRET_KEYS = ['token', 'bearerToken', 'value', 'clientSecret', 'password', 'secret'];

function nonEmpty(v: JsonValue | undefined): v is string {
  return typeof v === 'string' && v.length > 0;
}

/** True for an absolute http(s) URL. */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    return new URL(value).host.length > 0;
  } catch {
    return false;
  }
}

function isLoopbackUrl(value: string): boolean {
  try {
    const host = new URL(value).hostname;
    return host === 'localhost' || host === '[::1]' || host.startsWith('127.');
  } catch {
    return false;
  }
}

/** Validates `transport`: stdio `{command, args?, lifecycle, cwd?}` or http `{url}`. */
export function validateTransport(value: JsonValue | undefined, path: string, f: Findings): void {
  if (!isJsonObject(value)) return f.add(path, 'transport is required and must be an object');
  const at = (k: string) => childPath(path, k);
  if (value.type === 'stdio') {
    f.unknownKeys(value, new Set(['type', 'command', 'args', 'lifecycle', 'cwd']), path);
    if (!nonEmpty(value.command))
      f.add(at('command'), 'a stdio transport needs a non-empty command', 'AHP-STDIO-001');
    if ('args' in value && !(Array.isArray(value.args) && value.args.every((a) => typeof a === 'string'))) {
      f.add(at('args'), 'args must be an array of strings (no shell string)', 'AHP-STDIO-001');
    }
    if (!('lifecycle' in value)) {
      f.add(at('lifecycle'), 'lifecycle is required: persistent or per_event', 'AHP-STDIO-001');
    } else if (value.lifecycle !== 'persistent' && value.lifecycle !== 'per_event') {
      f.add(
        at('lifecycle'),
        `lifecycle must be persistent or per_event, not ${JSON.stringify(value.lifecycle)}`,
        'AHP-STDIO-001',
      );
    }
    if ('cwd' in value && !nonEmpty(value.cwd))
      f.add(at('cwd'), 'cwd must be a non-empty string', 'AHP-STDIO-001');
  } else if (value.type === 'http') {
    f.unknownKeys(value, new Set(['type', 'url']), path);
    if (typeof value.url !== 'string' || !isHttpUrl(value.url)) {
      f.add(at('url'), 'an http transport needs an absolute http(s) url', 'AHP-HTTP-001');
    } else if (value.url.toLowerCase().startsWith('http:') && !isLoopbackUrl(value.url)) {
      f.warn(
        at('url'),
        'plain http is only acceptable on loopback or a controlled local setup',
        'AHP-HTTP-001',
      );
    }
  } else {
    f.add(at('type'), 'transport type must be stdio or http');
  }
}

/**
 * Validates `authentication` (HTTP only): bearer with exactly one of tokenEnv/tokenRef and no
 * other key, or oauth; mtls and workload are not portable (AHP-AUTH-001).
 */
export function validateAuthentication(
  value: JsonValue,
  path: string,
  transportType: JsonValue | undefined,
  f: Findings,
): void {
  if (transportType !== 'http') f.add(path, 'authentication applies only to an http transport', AUTH);
  if (!isJsonObject(value)) return f.add(path, 'authentication must be an object', AUTH);
  const at = (k: string) => childPath(path, k);
  for (const key of LITERAL_SECRET_KEYS) {
    if (key in value) f.add(at(key), `"${key}" would store a literal secret in configuration`, 'AHP-SEC-001');
  }
  if (value.type === 'bearer') {
    for (const key of Object.keys(value)) {
      if (!['type', 'tokenEnv', 'tokenRef', ...LITERAL_SECRET_KEYS].includes(key)) {
        f.add(at(key), `bearer authentication takes only tokenEnv or tokenRef, not "${key}"`, REG1);
      }
    }
    const hasEnv = 'tokenEnv' in value;
    const hasRef = 'tokenRef' in value;
    if (hasEnv === hasRef)
      f.add(path, 'bearer authentication needs exactly one of tokenEnv and tokenRef', REG1);
    if (hasEnv && !(typeof value.tokenEnv === 'string' && TOKEN_ENV.test(value.tokenEnv))) {
      f.add(at('tokenEnv'), 'tokenEnv must be an environment variable name', REG1);
    }
    if (hasRef && !nonEmpty(value.tokenRef))
      f.add(at('tokenRef'), 'tokenRef must be a non-empty string', REG1);
  } else if (value.type === 'oauth') {
    f.unknownKeys(
      value,
      new Set([
        'type',
        'issuer',
        'resource',
        'clientId',
        'flow',
        'scopes',
        'clientSecretRef',
        ...LITERAL_SECRET_KEYS,
      ]),
      path,
    );
    if (typeof value.issuer !== 'string' || !/^https:\/\//i.test(value.issuer) || !isHttpUrl(value.issuer)) {
      f.add(at('issuer'), 'issuer must be an https URL', AUTH);
    }
    if (!nonEmpty(value.resource)) f.add(at('resource'), 'resource is required', AUTH);
    if (!nonEmpty(value.clientId)) f.add(at('clientId'), 'clientId is required', AUTH);
    if (value.flow !== 'authorization_code_pkce' && value.flow !== 'client_credentials') {
      f.add(at('flow'), 'flow must be authorization_code_pkce or client_credentials', AUTH);
    }
    if (
      'scopes' in value &&
      !(Array.isArray(value.scopes) && value.scopes.every((s) => typeof s === 'string'))
    ) {
      f.add(at('scopes'), 'scopes must be an array of strings', AUTH);
    }
    if ('clientSecretRef' in value && !nonEmpty(value.clientSecretRef)) {
      f.add(at('clientSecretRef'), 'clientSecretRef must be a non-empty string', AUTH);
    }
  } else if (value.type === 'mtls' || value.type === 'workload') {
    f.add(at('type'), `${value.type} authentication is deployment-specific, not portable AHP`, AUTH);
  } else {
    f.add(at('type'), 'authentication type must be bearer or oauth', AUTH);
  }
}
