import { defineConfig } from 'vitest/config';

// End-to-end checks too slow or too heavy for `npm test` (packing and installing the package,
// the documented full suite runs); `.ci/run` runs each file as a step of its own.
export default defineConfig({
  test: {
    include: ['scripts/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
