/**
 * The building blocks of the driver protocol's schema. Each carries the one phrase a problem
 * report prints after the field's path ("$.result.audit[0].outcome must be one of ..."), and an
 * absent member always reads "is missing", so every schema speaks the same way. A refinement
 * carries its JSON Schema keywords as metadata: docs/driver-protocol.schema.json is generated from
 * these schemas, and a refinement alone would leave nothing there.
 */
import { z } from 'zod';
import type { JsonValue } from '../json.js';

/** The issue message: "is missing" for an absent value, else `message`. */
export function expecting(message: string): { error: (issue: { input?: unknown }) => string } {
  return { error: (issue) => (issue.input === undefined ? 'is missing' : message) };
}

/** The phrase for a closed set of strings: `must be one of "a", "b"`. */
export function oneOfPhrase(values: readonly string[]): string {
  return `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
}

/** Any string. */
export const text = (message = 'must be a string') => z.string(expecting(message));

/**
 * At least one item or character. A refinement, not `.min()`: zod runs length checks on any value
 * with a length, so a wrong type would be reported twice.
 */
export const notEmpty = (message: string) =>
  [(value: { length: number }) => value.length > 0, message] as const;

/** A string with at least one character; `message`, when given, names both ways to miss it. */
export const nonEmptyText = (message?: string) =>
  text(message)
    .refine(...notEmpty(message ?? 'must not be empty'))
    .meta({ minLength: 1 });

/** `true` or `false`. */
export const flag = () => z.boolean(expecting('must be true or false'));

/** One of a closed set of strings. */
export const oneOf = <const T extends readonly [string, ...string[]]>(
  values: T,
  message = oneOfPhrase(values),
) => z.enum(values, expecting(message));

/** A non-negative integer; `isInteger` may ask more (a safe integer, for a count the suite sends). */
export const count = (message = 'must be a non-negative integer', isInteger = Number.isInteger) =>
  z
    .number(expecting(message))
    .refine((n) => isInteger(n) && n >= 0, message)
    .meta({ type: 'integer', minimum: 0 });

/** A number that is not negative (zod's numbers are finite). */
export const amount = (message = 'must be a non-negative number') =>
  z
    .number(expecting(message))
    .refine((n) => n >= 0, message)
    .meta({ minimum: 0 });

/**
 * An object with these members. Unknown members are allowed (drivers and suites may say more
 * than v1 defines) and left out of its type; a check returns the value itself, members intact.
 */
export const record = <S extends z.core.$ZodLooseShape>(shape: S) =>
  z.object(shape, expecting('must be an object'));

/**
 * An object whose type also admits further members, as JSON values. They are not checked: every
 * member of a parsed line is one.
 */
export const openRecord = <S extends z.core.$ZodLooseShape>(shape: S) =>
  record(shape).catchall(z.custom<JsonValue>());

/** An array of `item`. */
export const list = <T extends z.ZodType>(item: T) => z.array(item, expecting('must be an array'));
