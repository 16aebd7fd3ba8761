/**
 * In-process timing cases (timing-cases.ts): the reference harness as a library, or a broken
 * twin's library form, on a hand-moved clock; `untested` for any other driver.
 */
import { declareTimingCases } from './timing-cases.js';

declareTimingCases();
