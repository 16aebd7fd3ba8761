import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../protocol/json.js';
import { validateEvent } from '../../../protocol/event-validation.js';
import { samplePayload } from '../kit/event-payloads.js';
import {
  errorKeptProblems,
  nativeCopy,
  nativeLeakProblems,
  nativeProblems,
  placeNative,
  unaskedNativeProblems,
  withoutNative,
} from './content-native.js';
import { givenConversation, marker } from './content-samples.js';

const NONCE = 'n4tive';
const given = givenConversation(NONCE, { structured: false });

/** A tool.after the native cases would hand in, native placed at `site`. */
function failedCall(site: 'event' | 'error'): JsonObject {
  const payload = samplePayload('tool.after');
  placeNative(site, payload, nativeCopy(given));
  return {
    id: 'evt-1',
    source: 'urn:test:harness',
    time: '2026-12-03T08:00:00Z',
    session: { id: 'sess-1' },
    type: 'tool.after',
    ...payload,
  };
}

const withheldAll = new Map(given.flatMap((m) => m.parts.map((p) => [p.id, marker(NONCE, p.id)])));

describe('native data in the content cases', () => {
  it('copies every text and reference, and hands in events the validator accepts at both sites', () => {
    const copy = JSON.stringify(nativeCopy(given));
    for (const id of withheldAll.keys()) expect(copy).toContain(marker(NONCE, id));
    expect(validateEvent(failedCall('event'))).toEqual([]);
    expect(validateEvent(failedCall('error'))).toEqual([]);
    expect(failedCall('error')).toMatchObject({ outcome: 'error', error: { class: 'tool' } });
  });

  it('finds native at either site for a subscription that did not ask, and none once it is gone', () => {
    expect(unaskedNativeProblems(failedCall('event')).map((f) => f.message)).toEqual([
      expect.stringContaining('$.params.event.native is present'),
    ]);
    expect(unaskedNativeProblems(failedCall('error')).map((f) => f.rule)).toEqual(['content.native']);
    expect(unaskedNativeProblems(withoutNative(failedCall('error')))).toEqual([]);
    expect(withoutNative(failedCall('error')).error).toEqual({
      class: 'tool',
      message: 'the command exited with status 2',
    });
  });

  it('for a subscription that asked, finds only the withheld parts the native data holds', () => {
    const event = failedCall('error');
    expect(nativeLeakProblems(event, new Map())).toEqual([]);
    const one = new Map([['user-1', marker(NONCE, 'user-1')]]);
    expect(nativeLeakProblems(event, one).map((f) => f.message)).toEqual([
      expect.stringContaining('error.native holds the content of part user-1'),
    ]);
    expect(nativeLeakProblems(event, withheldAll)).toHaveLength(withheldAll.size);
    expect(nativeLeakProblems({ ...event, error: { class: 'tool', message: 'x', native: 7 } }, one)).toEqual(
      [],
    );
  });

  it('wants the error as handed in, native apart, and no error where none was handed in', () => {
    const given = failedCall('error');
    const error = given.error;
    expect(errorKeptProblems(withoutNative(given), error)).toEqual([]);
    expect(errorKeptProblems(given, error)).toEqual([]);
    expect(errorKeptProblems({ ...given, error: {} }, error).map((f) => f.rule)).toEqual([
      'content.native-projection',
    ]);
    expect(errorKeptProblems(withoutNative(failedCall('event')), undefined)).toEqual([]);
    expect(errorKeptProblems({ ...failedCall('event'), error: {} }, undefined)).toHaveLength(1);
  });

  it('judges native by the setting: any at all unasked, only withheld content when asked', () => {
    const event = failedCall('event');
    expect(nativeProblems(event, false, new Map(), undefined)).toHaveLength(1);
    expect(nativeProblems(event, true, new Map(), undefined)).toEqual([]);
    expect(nativeProblems(event, true, withheldAll, undefined)).toHaveLength(withheldAll.size);
  });
});
