// fast-check arbitraries for hostile backend streams. Each category stresses one way a backend
// can misbehave; `mixed` throws everything together. Sizes and times scale with the profile.
import fc from 'fast-check';
import { DEFAULT_MAX_FRAME_BYTES } from '../../protocol/ndjson.js';
import type { Corruption, HostileStream, HttpShape, Segment } from './hostile-model.js';
import {
  atArb,
  brokenSegmentArb,
  corruptionArb,
  noiseArb,
  timingArb,
  validSegmentArb,
} from './hostile-pieces.js';

/** How big and how slow the streams of one run may be. */
export interface StreamProfile {
  /** Subscription timeouts to draw from. */
  timeoutsMs: readonly number[];
  /** "Around the deadline" means within this many ms of it, either side. */
  aroundMs: number;
  /** Longest pause between two chunks outside the deadline category. */
  maxHopMs: number;
  maxFloodLines: number;
  /** The frame cap the oversized-line category is sized against. */
  frameCapBytes: number;
  /** Relative weight of the oversized-line category (it moves megabytes). */
  hugeWeight: number;
  /** Deadline of that category: decoding megabytes takes tens of ms on a busy machine. */
  hugeTimeoutMs: number;
}

/** The in-process bulk: short deadlines so that 100,000 streams finish in minutes. */
export const IN_PROCESS_PROFILE: StreamProfile = {
  timeoutsMs: [25, 50, 100],
  aroundMs: 15,
  maxHopMs: 4,
  maxFloodLines: 2000,
  frameCapBytes: DEFAULT_MAX_FRAME_BYTES,
  hugeWeight: 2,
  hugeTimeoutMs: 1000,
};

/**
 * Real processes: one spawn (~150 ms, far more on a loaded VM) may fall inside a deadline, so
 * deadlines are seconds long and "around the deadline" is wider.
 */
export const REAL_STDIO_PROFILE: StreamProfile = {
  timeoutsMs: [2000],
  aroundMs: 150,
  maxHopMs: 4,
  maxFloodLines: 500,
  frameCapBytes: DEFAULT_MAX_FRAME_BYTES,
  hugeWeight: 1,
  hugeTimeoutMs: 4000,
};

/** HTTP over loopback: no spawn per request, but the same loaded machine. */
export const HTTP_PROFILE: StreamProfile = { ...REAL_STDIO_PROFILE, timeoutsMs: [1000] };

const base = (profile: StreamProfile) => ({
  policy: fc.constantFrom<'fail-open' | 'fail-closed'>('fail-open', 'fail-closed'),
  timeoutMs: fc.constantFrom(...profile.timeoutsMs),
  end: fc.constantFrom<'hang' | 'eof'>('hang', 'eof'),
});

type Parts = Omit<HostileStream, 'category' | 'policy' | 'timeoutMs' | 'end'> & {
  end?: HostileStream['end'];
};

function category(
  name: string,
  profile: StreamProfile,
  parts: fc.Arbitrary<Parts>,
): fc.Arbitrary<HostileStream> {
  return fc.record({ ...base(profile), parts }).map(({ policy, timeoutMs, end, parts: p }) => ({
    category: name,
    policy,
    timeoutMs,
    segments: p.segments,
    corruptions: p.corruptions,
    timing: p.timing,
    end: p.end ?? end,
  }));
}

/** Every hostile stream category, weighted; `profile` sets the sizes and times. */
export function hostileStreamArb(profile: StreamProfile): fc.Arbitrary<HostileStream> {
  const none: Corruption[] = [];
  const timing = timingArb(profile.maxHopMs);
  const cap = profile.frameCapBytes;
  const parts = (
    segments: fc.Arbitrary<Segment[]>,
    corruptions: fc.Arbitrary<Corruption[]> = fc.constant(none),
    t = timing,
  ) => fc.record({ segments, corruptions, timing: t });
  const around = fc.integer({ min: -profile.aroundMs, max: profile.aroundMs });
  const deadlineParts = fc
    .tuple(validSegmentArb, around, fc.constantFrom(...profile.timeoutsMs), fc.boolean(), atArb)
    .map(([segment, offset, t, split, at]): Parts & { timeoutMs: number } => ({
      segments: [segment],
      corruptions: none,
      timeoutMs: t,
      // Either the whole reply arrives around the deadline, or its last piece does.
      timing: split
        ? { firstDelayMs: 0, splits: [{ at, hop: Math.max(1, t + offset) }] }
        : { firstDelayMs: Math.max(0, t + offset), splits: [] },
    }));
  const categories: Array<{ arbitrary: fc.Arbitrary<HostileStream>; weight: number }> = [
    { weight: 18, arbitrary: category('clean', profile, parts(fc.tuple(validSegmentArb).map((s) => s))) },
    {
      weight: 8,
      arbitrary: category(
        'trailing',
        profile,
        parts(
          fc
            .tuple(
              validSegmentArb,
              fc.array(fc.oneof(validSegmentArb, brokenSegmentArb, noiseArb), { minLength: 1, maxLength: 3 }),
            )
            .map(([v, rest]) => [v, ...rest]),
        ),
      ),
    },
    {
      weight: 20,
      arbitrary: category(
        'invalid-reply',
        profile,
        parts(fc.array(brokenSegmentArb, { minLength: 1, maxLength: 2 })),
      ),
    },
    {
      weight: 22,
      arbitrary: category(
        'corrupted',
        profile,
        parts(
          fc.array(validSegmentArb, { minLength: 1, maxLength: 2 }),
          fc.array(corruptionArb, { minLength: 1, maxLength: 3 }),
        ),
      ),
    },
    {
      weight: 8,
      arbitrary: category('noise-first', profile, parts(fc.tuple(noiseArb, validSegmentArb).map((s) => s))),
    },
    {
      weight: 5,
      arbitrary: category(
        'flood',
        profile,
        parts(
          fc
            .tuple(
              fc.constantFrom(
                'noise',
                '{}',
                '[1,2,3]',
                '{"jsonrpc":"2.0","id":"x","result":{"protocolVersion":"draft","effects":[]}}',
              ),
              fc.integer({ min: 2, max: profile.maxFloodLines }),
              fc.boolean(),
              validSegmentArb,
            )
            .map(([line, count, replyFirst, valid]): Segment[] => {
              const flood: Segment = { kind: 'flood', line, count };
              return replyFirst ? [valid, flood] : [flood, valid];
            }),
        ),
      ),
    },
    {
      weight: profile.hugeWeight,
      arbitrary: category(
        'huge',
        { ...profile, timeoutsMs: [profile.hugeTimeoutMs] },
        parts(
          fc
            .tuple(fc.integer({ min: -2, max: 2 }), fc.boolean(), fc.constantFrom('x', '{', ' '))
            .map(([delta, asReply, fill]): Segment[] =>
              asReply
                ? [{ kind: 'reply', reply: { shape: 'padded', bytes: cap + delta }, eol: 'lf' }]
                : [
                    { kind: 'huge', size: cap + 1 + Math.abs(delta) * 4096, fill },
                    { kind: 'reply', reply: { shape: 'no-effect' }, eol: 'lf' },
                  ],
            ),
          fc.constant(none),
          timingArb(profile.maxHopMs, 8),
        ),
      ),
    },
    {
      weight: 10,
      arbitrary: fc.record({ ...base(profile), d: deadlineParts }).map(({ policy, end, d }) => ({
        category: 'deadline',
        policy,
        timeoutMs: d.timeoutMs,
        segments: d.segments,
        corruptions: d.corruptions,
        timing: d.timing,
        end,
      })),
    },
    {
      weight: 4,
      arbitrary: category(
        'silent',
        profile,
        parts(
          fc.oneof(
            fc.constant([] as Segment[]),
            fc.tuple(validSegmentArb).map(([s]): Segment[] => [{ ...s, eol: 'none' } as Segment]),
          ),
        ),
      ),
    },
    {
      weight: 5,
      arbitrary: category(
        'mixed',
        profile,
        parts(
          fc.array(fc.oneof(validSegmentArb, brokenSegmentArb, noiseArb), { minLength: 1, maxLength: 6 }),
          fc.array(corruptionArb, { maxLength: 3 }),
        ),
      ),
    },
  ];
  return fc.oneof(...categories);
}

const httpShapeArb: fc.Arbitrary<HttpShape> = fc.record({
  status: fc.oneof(
    { arbitrary: fc.constant(200), weight: 12 },
    { arbitrary: fc.constantFrom(201, 202, 204, 301, 302, 400, 401, 403, 500, 503), weight: 3 },
  ),
  contentType: fc.oneof(
    { arbitrary: fc.constant<string | null>('application/json'), weight: 8 },
    {
      arbitrary: fc.constantFrom<string | null>(
        'application/json; charset=utf-8',
        'application/problem+json',
        'APPLICATION/JSON',
        'text/plain',
        'text/html',
        'application/jsonx',
        null,
      ),
      weight: 3,
    },
  ),
  contentLength: fc.boolean(),
  end: fc.oneof(
    { arbitrary: fc.constant<HttpShape['end']>('end'), weight: 10 },
    { arbitrary: fc.constantFrom<HttpShape['end']>('destroy', 'hang'), weight: 2 },
  ),
});

/** Hostile streams served over HTTP: the stream's bytes are the body. */
export function httpStreamArb(profile: StreamProfile): fc.Arbitrary<HostileStream> {
  return fc.tuple(hostileStreamArb(profile), httpShapeArb).map(([stream, http]) => ({ ...stream, http }));
}
