/**
 * AHP-STDIO-001, the per_event lifecycle: a per_event backend receives exactly one JSON-RPC
 * message on stdin, followed by EOF (spec/draft/base/transports/stdio.md, "Process-per-event
 * lifecycle"). One case per per_event path: the intercept request of a tool.before, and the
 * observe notification of an observe subscription on a per_event backend. The mock answers at
 * once and exits only at EOF, so a harness that never closes stdin shows it on the mock's process
 * list (kit/per-event-eof.ts) whatever it then does with the call.
 */
import type { CaseCheck, HarnessCase } from '../kit/case-model.js';
import { eofFinding } from '../kit/per-event-eof.js';

type PerEventPath = 'hooks/intercept' | 'hooks/observe';

/** The processes that read the call's frames of `method` got one message, then EOF. */
function oneMessageThenEof(method: PerEventPath): CaseCheck {
  return {
    name: `${method} process gets one message, then EOF`,
    async run(run, context) {
      await context.waitForFrames(run.index, method, 1);
      const records = context.recordsNow(run.index);
      const frames = method === 'hooks/intercept' ? records.requests : records.notifications;
      // An intercept request that never arrived fails the case's delivery check already.
      if (frames.length === 0 && method === 'hooks/intercept') return [];
      if (frames.length === 0) {
        context.untested(
          'no hooks/observe notification of the call reached the mock, so no observer process shows its stdin',
        );
      }
      const readings = await context.eofReadings(frames);
      const broken = eofFinding(readings);
      if (broken !== undefined) return [broken];
      if (!readings.some((r) => r.verdict === 'ok')) {
        const why = readings.map((r) => (r.verdict === 'no-evidence' ? r.why : r.verdict)).join('; ');
        context.untested(`no per_event process showed its stdin EOF: ${why}`);
      }
      return [];
    },
  };
}

const BASE = 'AHP-STDIO-001/transport:stdio-per_event/policy:fail-closed';

/** The two per_event EOF cases. */
export function perEventEofCases(): HarnessCase[] {
  const common = {
    requirements: ['AHP-STDIO-001'],
    transport: 'stdio-per_event' as const,
    policy: 'fail-closed' as const,
    behaviour: { kind: 'respond' as const },
  };
  return [
    {
      name: `${BASE}/intercept/one-message-then-eof`,
      ...common,
      checks: [oneMessageThenEof('hooks/intercept')],
    },
    {
      name: `${BASE}/observe/one-message-then-eof`,
      ...common,
      // A notification has no reply: the observer reads it and exits at EOF.
      observe: { behaviour: { kind: 'silent' } },
      checks: [oneMessageThenEof('hooks/observe')],
    },
  ];
}
