/**
 * AHP-STDIO-001, the persistent lifecycle: the harness correlates a persistent backend's responses
 * by JSON-RPC id (spec/draft/base/transports/stdio.md, "Persistent lifecycle"). A frame that
 * carries no outstanding request's id answers nothing: the call pending on that backend settles
 * by the reply carrying its own id (a live explicit deny here, which neither policy changes), and
 * a frame that came while nothing was pending does not fail the next call. Each stray frame is a
 * valid reply with no objection, so a harness that takes it as the answer continues, and one that
 * judges it the call's reply under a wrong id fails the call by its policy: both differ from the
 * live deny, under either policy.
 */
import type { FailurePolicy } from '../../../protocol/failure-classes.js';
import { PROTOCOL_VERSION } from '../../../protocol/wire-types.js';
import { REQUEST_ID_TEMPLATE, type Behaviour } from '../../../mock-backend/index.js';
import { scaled } from '../../common/settings.js';
import type { CaseStep, HarnessCase } from '../kit/case-model.js';
import type { Provoked } from '../kit/classify.js';

/**
 * The id of a stray reply: no request of the suite's carries it (event ids are `evt-<lane>-<n>`),
 * so the mock's reply-id check (reply-ids.test.ts) lets it through by name.
 */
export const STRAY_REPLY_ID = 'stray-reply-of-no-request';

/** The deny reason of the live reply, the one that answers the pending call. */
export const LIVE_DENY_REASON = 'The live reply of the pending call denies.';

/**
 * How long after a stray frame the live reply (or an old reply's copy) is written: long enough for
 * the stray to be read on its own first; far inside the answer deadline.
 */
export const STRAY_PAUSE_MS = 300;

const POLICIES: readonly FailurePolicy[] = ['fail-open', 'fail-closed'];
const BASE = 'AHP-STDIO-001/transport:stdio-persistent';

/** One reply line; `idJson` is the id as JSON text (or the mock's request-id template). */
function replyLine(idJson: string, effects: readonly object[]): string {
  return `{"jsonrpc":"2.0","id":${idJson},"result":${JSON.stringify({ protocolVersion: PROTOCOL_VERSION, effects })}}\n`;
}

const LIVE_DENY = replyLine(REQUEST_ID_TEMPLATE, [{ type: 'deny', reason: LIVE_DENY_REASON }]);
const OWN_ANSWER = replyLine(REQUEST_ID_TEMPLATE, []);

/** What the live deny amounts to: the call's own reply, judged under the correlation rule. */
const liveDeny = (because: string): Provoked => ({
  kind: 'deny',
  reason: LIVE_DENY_REASON,
  because,
  rule: 'stdio.correlate-by-id',
});

/** A reply under an unknown id, then, after the pause, the call's own deny. */
const UNKNOWN_ID_FIRST: Behaviour = {
  kind: 'raw',
  chunks: [
    { text: replyLine(JSON.stringify(STRAY_REPLY_ID), []) },
    { text: LIVE_DENY, afterMs: scaled(STRAY_PAUSE_MS) },
  ],
};

/** The call's own answer, then the same reply again after the pause: an old reply, unsolicited. */
const ANSWER_THEN_AGAIN: Behaviour = {
  kind: 'raw',
  chunks: [{ text: OWN_ANSWER }, { text: OWN_ANSWER, afterMs: scaled(STRAY_PAUSE_MS) }],
};

/**
 * The next call's deny, held twice the pause: the previous call's old reply lands while this one
 * waits for its own (or, on a slow machine, just before it is sent, while nothing is pending).
 */
const HELD_DENY: Behaviour = {
  kind: 'delay',
  ms: scaled(2 * STRAY_PAUSE_MS),
  then: { kind: 'deny', reason: LIVE_DENY_REASON },
};

const ownDeny = (label: string, behaviour: Behaviour): CaseStep => ({
  label,
  behaviour,
  expect: { rule: 'stdio.correlate-by-id' },
});

/** The stray-frame cases on a persistent stdio backend, under each policy. */
export function strayReplyCases(): HarnessCase[] {
  return POLICIES.flatMap((policy): HarnessCase[] => {
    const common = {
      requirements: ['AHP-STDIO-001'],
      transport: 'stdio-persistent' as const,
      policy,
      deadline: 'answer' as const,
    };
    const name = (what: string) => `${BASE}/policy:${policy}/correlate-by-id/${what}`;
    return [
      {
        name: name('unknown-id-before-live-reply'),
        ...common,
        behaviour: UNKNOWN_ID_FIRST,
        means: liveDeny(
          'the deny under the request id (the reply under an unknown id before it answers nothing)',
        ),
      },
      {
        name: name('old-reply-again-before-next-live-reply'),
        ...common,
        label: 'answered, its reply written again after the pause',
        behaviour: ANSWER_THEN_AGAIN,
        means: {
          kind: 'answer',
          because: "the call's own reply (an empty effect list, written again later)",
          rule: 'stdio.correlate-by-id',
        },
        then: [ownDeny('the next call, held while the old reply lands', HELD_DENY)],
      },
      {
        name: name('observer-answer-before-next-intercept'),
        ...common,
        // The observer shares the interceptor's backend entry, so its answer (a reply under a
        // null id: a notification has none) comes on the same stdout as the intercept replies.
        observe: { behaviour: { kind: 'respond' }, entry: 'shared' },
        label: 'the first call, whose notification the observer answers',
        behaviour: { kind: 'respond' },
        expect: { rule: 'stdio.correlate-by-id' },
        then: [
          ownDeny('the next call, held while the observer answer lands', HELD_DENY),
          ownDeny('a call after that', { kind: 'deny', reason: LIVE_DENY_REASON }),
        ],
      },
    ];
  });
}
