import { SELECTIONS } from './content.js';
import { childPath, isJsonObject, type JsonObject, type JsonValue } from './json.js';
import { isHttpUrl } from './registration-backend.js';
import type { Findings } from './registration-findings.js';

const CONTENT = 'AHP-CONTENT-002';

function isSelection(v: JsonValue | undefined): boolean {
  return typeof v === 'string' && (SELECTIONS as readonly string[]).includes(v);
}

function isPositiveInteger(v: JsonValue | undefined): boolean {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;
}

function isStringArray(v: JsonValue | undefined): boolean {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/** Validates a content selection: a required `default` plus flat per-category values. */
export function validateContentSelection(value: JsonValue, path: string, f: Findings): void {
  if (!isJsonObject(value)) return f.add(path, 'content must be an object', CONTENT);
  if (!('default' in value)) f.add(childPath(path, 'default'), 'content.default is required', CONTENT);
  for (const [key, v] of Object.entries(value)) {
    if (!isSelection(v))
      f.add(childPath(path, key), `content.${key} must be body, metadata or omit`, CONTENT);
  }
}

/** Validates the optional recognized subscription fields: id, includeNative, upload, filters, scope. */
export function validateSubscriptionExtras(value: JsonObject, path: string, f: Findings): void {
  const at = (k: string) => childPath(path, k);
  if ('id' in value && !(typeof value.id === 'string' && value.id.length > 0))
    f.add(at('id'), 'id must be a non-empty string');
  if ('includeNative' in value && typeof value.includeNative !== 'boolean')
    f.add(at('includeNative'), 'includeNative must be a boolean');
  if ('disableable' in value && typeof value.disableable !== 'boolean')
    f.add(at('disableable'), 'disableable must be a boolean');
  if ('scope' in value) {
    if (value.scope !== 'managed' && value.scope !== 'project' && value.scope !== 'user') {
      f.add(at('scope'), 'scope must be managed, project or user');
    } else if (value.scope === 'managed' && value.disableable !== false) {
      f.add(at('disableable'), 'a managed subscription requires disableable: false');
    }
  }
  if ('filters' in value) {
    const filters = value.filters;
    if (!isJsonObject(filters)) f.add(at('filters'), 'filters must be an object');
    else {
      for (const key of ['toolKinds', 'paths'] as const) {
        if (key in filters && !isStringArray(filters[key]))
          f.add(childPath(at('filters'), key), `${key} must be a string array`);
      }
    }
  }
  if ('upload' in value) {
    const upload = value.upload;
    const p = at('upload');
    if (!isJsonObject(upload)) return f.add(p, 'upload must be an object', CONTENT);
    if (typeof upload.endpoint !== 'string' || !isHttpUrl(upload.endpoint)) {
      f.add(childPath(p, 'endpoint'), 'upload.endpoint must be an absolute http(s) URL', CONTENT);
    }
    if (!isPositiveInteger(upload.timeoutMs))
      f.add(childPath(p, 'timeoutMs'), 'upload.timeoutMs must be a positive integer', CONTENT);
    if (!isPositiveInteger(upload.maxBytes))
      f.add(childPath(p, 'maxBytes'), 'upload.maxBytes must be a positive integer', CONTENT);
    if ('auth' in upload && !isJsonObject(upload.auth))
      f.add(childPath(p, 'auth'), 'upload.auth must be an object', CONTENT);
  }
}
