// AHP-STDIO-001 over stdio-persistent: replies correlated by JSON-RPC id (stray-reply-cases.ts).
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { strayReplyCases } from './stray-reply-cases.js';

harnessCases(useHarnessFixture(), strayReplyCases());
