import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packageVersion } from './package-version.js';

const expected = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

describe('packageVersion', () => {
  it('finds the project version from the source folder and from a dist/ bundle', () => {
    expect(packageVersion()).toBe(expected);
    expect(packageVersion(new URL('../../dist/reference-driver.mjs', import.meta.url).href)).toBe(expected);
  });

  it('reports an unknown version outside the project', () => {
    expect(packageVersion('file:///tmp/elsewhere/driver.mjs')).toBe('0.0.0-unknown');
  });
});
