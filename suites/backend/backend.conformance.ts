// Every backend-side case. The families are data tables in `probes-*.ts`; they are declared from
// one file because each suite file costs a vitest worker start (about a second on a 2-core VM),
// which dwarfed the cases themselves when each family had its own file.
import { declareProbes } from './declare-probes.js';
import { BACKEND_PROBES } from './probes-index.js';

declareProbes(BACKEND_PROBES);
