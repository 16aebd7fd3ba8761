/**
 * In-process cases about the token-provider callback (AHPX-INT-003, AHPX-BUD-007): the reference
 * harness as a library, or a broken twin's library form; `untested` for any other driver. No
 * driver is started here.
 */
import { declareAuthCallbackCases } from './auth-callback-cases.js';

declareAuthCallbackCases();
