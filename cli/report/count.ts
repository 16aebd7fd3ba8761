/**
 * A count with its noun in the right number ("1 problem", "2 problems"), for every sentence the
 * reports and the console print. Pure.
 */

/** `n` and the noun: `one` when n is 1, else `many` (by default `one` + "s"). */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The noun alone, in the number `n` calls for ("1 of 1 case", "1 of 3 cases"). */
export function noun(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}
