// StrykerJS loads plugins with a plain import(), in its own process and in each test runner
// process; this registers tsx first, so the plugins can be TypeScript like the rest of the tree.
import { register } from 'tsx/esm/api';

register();
export const { strykerPlugins } = await import('./plugins.ts');
