// The example drivers are dependency-free, so each carries its own copy of the draft's
// observation-only events; this keeps every copy equal to the one the suite judges by.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OBSERVATION_ONLY_EVENTS } from '../../protocol/events.js';

const EXAMPLES = new URL('../../docs/examples/', import.meta.url);

/** The quoted event names between `opening` and the next `closing` in an example's source. */
function listAfter(file: string, opening: string, closing: string): string[] {
  const text = readFileSync(new URL(file, EXAMPLES), 'utf8');
  const start = text.indexOf(opening);
  expect(start, `${file} has no ${opening}`).toBeGreaterThanOrEqual(0);
  const body = text.slice(start + opening.length, text.indexOf(closing, start + opening.length));
  return [...body.matchAll(/['"]([a-z.]+)['"]/g)].map((m) => m[1] as string);
}

describe('the example drivers list the observation-only events as the suite does', () => {
  it.each([
    ['minimal-driver.mjs', 'const OBSERVATION_ONLY = new Set([', ']);'],
    ['minimal-driver.py', 'OBSERVE_ONLY = {', '}'],
  ])('%s', (file, opening, closing) => {
    expect(listAfter(file, opening, closing).sort()).toEqual([...OBSERVATION_ONLY_EVENTS].sort());
  });
});
