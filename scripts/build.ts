// `npm run build` and `prepare`: (re)build the dist/ bundles of the often-spawned programs.
import { ensureBundles } from '../cli/bundles.js';

await ensureBundles({ force: true });
