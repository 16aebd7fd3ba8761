import { defineConfig } from 'vitest/config';

// Unit tests live beside their source as *.test.ts; conformance cases use *.conformance.ts
// and are started by the CLI, not by `npm test`.
export default defineConfig({
  test: {
    include: ['{protocol,reference-harness,mock-backend,suites,cli,scripts}/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['scripts/vitest-global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
