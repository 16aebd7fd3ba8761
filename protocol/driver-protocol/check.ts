import type { z } from 'zod';
import { childPath } from '../json.js';

/** One way a driver message departs from the protocol: the field, and what is wrong with it. */
export interface ShapeProblem {
  field: string;
  message: string;
}

/** A value that matches its schema, or every problem found in it. */
export type ShapeCheck<T> = { ok: true; value: T } | { ok: false; problems: ShapeProblem[] };

/**
 * Checks `value` against a driver protocol schema, naming each problem's field from `root`
 * (`$.result`, `params`). On success the value itself is returned, untouched: the schema only
 * proves its shape, so its members keep their order.
 */
export function checkShape<S extends z.ZodType>(
  schema: S,
  value: unknown,
  root: string,
): ShapeCheck<z.infer<S>> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: value as z.infer<S> };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => ({
      field: issue.path.reduce<string>((path, key) => childPath(path, key as string | number), root),
      message: issue.message,
    })),
  };
}
