/**
 * Interruption (AHPX-INT-001, AHPX-INT-002) over HTTP: cancelling a call while its request is
 * pending ends it at once, overrides fail-open, and a reply after the cancellation does not revive
 * it (deadline-cancel-cases.ts; the stdio cases are in deadline-cancel-persistent and
 * deadline-cancel-per_event).
 */
import { inject } from 'vitest';
import { harnessCases } from '../kit/define.js';
import { useHarnessFixture } from '../kit/fixture.js';
import { DEFAULT_SETTINGS, SETTINGS_KEY } from '../kit/provided.js';
import { cancelCases } from './deadline-cancel-cases.js';

const fixture = useHarnessFixture({ concurrent: true });
const scale = (inject(SETTINGS_KEY) ?? DEFAULT_SETTINGS).timeoutScale;

harnessCases(fixture, cancelCases(fixture, 'http', scale));
