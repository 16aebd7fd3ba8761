/**
 * In-process cases: the bundled reference harness loaded as a library, for what a driver cannot
 * be handed (caller-owned transports and token providers). For any other target they are
 * `untested`. No driver is started here.
 */
import { declareProviderCases } from './auth-provider-cases.js';
import { declareLibraryResultCases } from './library-result-cases.js';
import { declareOwnershipCase } from './ownership-cases.js';

declareOwnershipCase();
declareProviderCases();
declareLibraryResultCases();
