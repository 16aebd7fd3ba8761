/**
 * `ms` multiplied by a timeout scale, as a whole number of at least 1 ms: deadlines and
 * `timeoutMs` values must be positive integers, and one rounding everywhere keeps a margin and
 * the bound derived from it equal.
 */
export function scaledMs(ms: number, scale: number): number {
  return Math.max(1, Math.round(ms * scale));
}

/** A table of named margins in ms; a nested table holds one margin per key (per transport, say). */
export interface MarginTable {
  readonly [name: string]: number | MarginTable;
}

/** A margin table after scaling: the same names, whole numbers of ms. */
export type ScaledTable<T> = { [K in keyof T]: T[K] extends number ? number : ScaledTable<T[K]> };

/** Every margin of `margins` (nested tables too) multiplied by `scale` through `scaledMs`. */
export function scaledMargins<T extends MarginTable>(margins: T, scale: number): ScaledTable<T> {
  return Object.fromEntries(
    Object.entries(margins).map(([name, value]) => [
      name,
      typeof value === 'number' ? scaledMs(value, scale) : scaledMargins(value, scale),
    ]),
  ) as ScaledTable<T>;
}
