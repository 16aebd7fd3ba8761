/**
 * In-process timing cases (timing-cases.ts, budget-upload-cases.ts): the reference harness as a
 * library, or a broken twin's library form, on a hand-moved clock; `untested` for any other driver.
 */
import { declareBudgetUploadCases } from './budget-upload-cases.js';
import { declareTimingCases } from './timing-cases.js';

declareTimingCases();
declareBudgetUploadCases();
