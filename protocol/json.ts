/** JSON values as they travel on the wire. */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One violation found by a validator: where, what, and which requirement it breaks. */
export interface Violation {
  /** JSON path in dotted/bracket form, `$` for the root (e.g. `$.hooks[0].subscriptions[1].timeoutMs`). */
  path: string;
  message: string;
  requirement: string;
}

/**
 * A function that appends a violation to `out`, its requirement defaulting to `requirement`.
 * Validators run on every hook call; a closure made here is anonymous, which keeps tsx's
 * keep-names from renaming one per call (a `defineProperty` each time).
 */
export function violationSink(
  out: Violation[],
  requirement: string,
): (path: string, message: string, req?: string) => void {
  return (path, message, req = requirement) => {
    out.push({ path, message, requirement: req });
  };
}

/** Appends a key or index to a JSON path. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** Strings whose JSON text is the string in quotes: nothing in them needs an escape. */
const PLAIN_STRING = /^[\w.:+-]*$/;

/**
 * `JSON.stringify(s)` for a string, without the call when `s` needs no escape (ids, times and
 * names usually do not; each stringify call costs about 0.1 µs here).
 */
export function jsonStringText(s: string): string {
  return PLAIN_STRING.test(s) ? `"${s}"` : JSON.stringify(s);
}
