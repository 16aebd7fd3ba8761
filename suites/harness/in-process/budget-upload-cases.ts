/**
 * In-process budget case for attachment uploads (failure-semantics.md, "Enclosing operation
 * budgets and shutdown"): selected content preparation and uploads consume the call's budget, and
 * budget expiry stops new work. With a budget of 0 the call has expired before it starts, so no
 * upload may go out as live work: the upload sender, when the harness calls it at all, must be
 * handed a signal that is already aborted (a sender honouring it sends nothing). A driver cannot
 * be lent an upload sender, so for any other target this case is `untested`.
 */
import { failOn } from '../kit/rules.js';
import { conformanceCase, type CaseContext } from '../../common/case.js';
import { PROTOCOL_VERSION } from '../../../protocol/wire-types.js';
import type { EventInput, UploadPost, UploadSender } from '../../../reference-harness/index.js';
import { HandClock } from './hand-clock.js';
import { caseLibrary, type LibraryHarness } from './library-target.js';
import {
  AT_ONCE_MS,
  INTERCEPTOR,
  LENT_TRANSPORT_URL,
  noObjection,
  ScriptedTransport,
  settledWithin,
} from './scripted-transport.js';

const PART_ID = 'part-image';

/**
 * One interceptor of turn.start that selects every body and configures an upload endpoint: the
 * image below is an upload it would be owed. The endpoint is never reached (the sender is lent).
 */
const REGISTRATION = {
  protocolVersion: PROTOCOL_VERSION,
  hooks: [
    {
      id: INTERCEPTOR,
      transport: { type: 'http', url: LENT_TRANSPORT_URL },
      subscriptions: [
        {
          events: ['turn.start'],
          mode: 'intercept',
          timeoutMs: 1000,
          failurePolicy: 'fail-open',
          content: { default: 'body' },
          upload: { endpoint: 'https://uploads.example.test/blobs', timeoutMs: 1000, maxBytes: 1024 },
        },
      ],
    },
  ],
};

/** A turn with one image the host owns bytes for (a body view with no reference yet). */
const TURN: EventInput = {
  type: 'turn.start',
  fields: {
    session: { id: 'sess-budget-upload' },
    turn: { id: 'turn-budget-upload' },
    trigger: 'user',
    items: [
      {
        id: 'msg-user',
        role: 'user',
        parts: [
          {
            id: PART_ID,
            kind: 'attachment',
            mediaType: 'image/png',
            selection: 'body',
            gap: { reason: 'upload-unavailable' },
          },
        ],
      },
    ],
  },
};

/** A sender that notes whether each upload's signal was already aborted when it was handed over. */
function recordingSender(): { send: UploadSender; handedLive: () => number; calls: () => number } {
  const posts: { post: UploadPost; aborted: boolean }[] = [];
  const send: UploadSender = (post) => {
    posts.push({ post, aborted: post.signal.aborted });
    // Answered at once either way: the case judges the hand-over, not how an upload ends.
    return Promise.reject(new Error('the lent upload sender sends nothing'));
  };
  return { send, handedLive: () => posts.filter((p) => !p.aborted).length, calls: () => posts.length };
}

async function zeroBudgetStartsNoUpload(factory: LibraryHarness): Promise<void> {
  const transport = new ScriptedTransport((f) => Promise.resolve(noObjection(f)));
  const sender = recordingSender();
  const harness = factory({
    registration: REGISTRATION,
    clock: new HandClock(),
    transports: { [INTERCEPTOR]: transport },
    uploadSender: sender.send,
  });
  try {
    const call = harness.invoke(TURN, {
      budgetMs: 0,
      attachments: new Map([[PART_ID, new Uint8Array([137, 80, 78, 71])]]),
    });
    const result = await settledWithin(call, AT_ONCE_MS);
    if (result === undefined)
      failOn('budget.expiry-ends-the-call', [
        `the budget was 0, but the call had not ended ${AT_ONCE_MS} ms later`,
      ]);
    const problems: string[] = [];
    if (sender.handedLive() > 0)
      problems.push(
        `${sender.handedLive()} of ${sender.calls()} upload(s) were handed to the sender with a live signal under a budget of 0`,
      );
    if (transport.requests.length > 0) problems.push('the event was delivered with no budget left');
    if (result?.interrupted !== true || result.ending !== 'budget-expired')
      problems.push(`the call reports ending "${String(result?.ending)}", not an interrupted budget expiry`);
    failOn('budget.expiry-ends-the-call', problems);
  } finally {
    await settledWithin(harness.close(), AT_ONCE_MS);
  }
}

/** Declares the budget-and-upload case in the calling suite file. */
export function declareBudgetUploadCases(): void {
  conformanceCase(
    {
      name: 'AHPX-BUD-006/in-process/policy:fail-open/zero-budget-hands-no-upload-a-live-signal',
      requirements: ['AHPX-BUD-006'],
    },
    async (ctx: CaseContext) => {
      await zeroBudgetStartsNoUpload(await caseLibrary(ctx));
    },
  );
}
