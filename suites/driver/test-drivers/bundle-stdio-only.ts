import { bundleDriver } from '../../../fixtures/harnesses/lib/bundle.js';

/** Bundles the stdio-only driver as the twins are bundled (boots without tsx); resolves with its argv. */
export function bundleStdioOnlyDriver(): Promise<string[]> {
  return bundleDriver('suites/driver/test-drivers/stdio-only-driver.ts', 'stdio-only-driver');
}
