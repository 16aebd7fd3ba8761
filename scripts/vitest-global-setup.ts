import { ensureBundles } from '../cli/bundles.js';

/** Tests spawn the bundled stdio mock and driver: make sure the bundles match the sources first. */
export default async function setup(): Promise<void> {
  await ensureBundles();
}
