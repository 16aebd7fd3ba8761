/**
 * In-process cases: the bundled reference harness loaded as a library, for what a driver cannot
 * be handed (caller-owned transports and token providers). For any other target they are
 * `untested`. No driver is started here.
 */
import { inject } from 'vitest';
import { DEFAULT_SETTINGS, SETTINGS_KEY } from '../kit/provided.js';
import { declareProviderCases } from './auth-provider-cases.js';
import { declareOwnershipCase } from './ownership-cases.js';

const scale = (inject(SETTINGS_KEY) ?? DEFAULT_SETTINGS).timeoutScale;

declareOwnershipCase(scale);
declareProviderCases(scale);
