import type { JsonValue } from '../../protocol/json.js';

/** What replaces a secret in any text the suite or the CLI writes out. */
export const REDACTED = '[redacted]';

/** Replaces every occurrence of each secret in `text`; empty secrets are ignored. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret !== '') out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** A deep copy of `value` with every secret replaced in strings and object keys. */
export function redactJson<T extends JsonValue>(value: T, secrets: readonly string[]): T {
  if (secrets.every((s) => s === '')) return value;
  const walk = (v: JsonValue): JsonValue => {
    if (typeof v === 'string') return redactText(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, JsonValue> = {};
      for (const [k, item] of Object.entries(v)) out[redactText(k, secrets)] = walk(item as JsonValue);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}
