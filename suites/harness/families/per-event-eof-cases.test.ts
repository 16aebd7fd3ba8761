import { describe, expect, it } from 'vitest';
import { finding } from '../kit/rules.js';
import type { CaseCheck, CaseRunContext, HarnessCase, StepRun } from '../kit/case-model.js';
import type { EofReading } from '../kit/per-event-eof.js';
import type { CaseRecords, WireFrame } from '../kit/wire-records.js';
import { perEventEofCases } from './per-event-eof-cases.js';

class Untested extends Error {}

const request = { method: 'hooks/intercept', connectionId: '7' } as WireFrame;
const notification = { method: 'hooks/observe', connectionId: '8' } as WireFrame;

/** A context whose mock recorded `records` and whose processes read as `readings`. */
function contextWith(records: Partial<CaseRecords>, readings: EofReading[]) {
  const asked: WireFrame[][] = [];
  const context = {
    waitForFrames: () => Promise.resolve(),
    recordsNow: () => ({ frames: [], requests: [], notifications: [], ...records }),
    eofReadings: (frames: readonly WireFrame[]) => {
      asked.push([...frames]);
      return Promise.resolve(readings);
    },
    untested(reason: string): never {
      throw new Untested(reason);
    },
  } as unknown as CaseRunContext;
  return { context, asked };
}

const run = { index: 0 } as StepRun;
const [intercept, observe] = perEventEofCases();
function checkOf(c: HarnessCase | undefined): CaseCheck['run'] {
  const check = c?.checks?.[0];
  if (!check) throw new Error('an EOF case without its check');
  return check.run;
}
const broken: EofReading = {
  verdict: 'broken',
  finding: finding('stdio.per-event-eof', 'stdin still open', { way: 'never-closed' }),
};

describe('the per_event EOF cases', () => {
  it('cover the intercept and the observe path, under AHP-STDIO-001, over per_event', () => {
    expect(perEventEofCases().map((c) => [c.name, c.requirements, c.transport])).toEqual([
      [
        'AHP-STDIO-001/transport:stdio-per_event/policy:fail-closed/intercept/one-message-then-eof',
        ['AHP-STDIO-001'],
        'stdio-per_event',
      ],
      [
        'AHP-STDIO-001/transport:stdio-per_event/policy:fail-closed/observe/one-message-then-eof',
        ['AHP-STDIO-001'],
        'stdio-per_event',
      ],
    ]);
    expect(observe?.observe).toBeDefined();
  });

  it('judge the processes of their own path: the request, or the notification', async () => {
    const a = contextWith({ requests: [request], notifications: [notification] }, [{ verdict: 'ok' }]);
    expect(await checkOf(intercept)(run, a.context)).toEqual([]);
    expect(a.asked).toEqual([[request]]);
    const b = contextWith({ requests: [request], notifications: [notification] }, [{ verdict: 'ok' }]);
    expect(await checkOf(observe)(run, b.context)).toEqual([]);
    expect(b.asked).toEqual([[notification]]);
  });

  it('fail on a process whose stdin did not end after its one message', async () => {
    const { context } = contextWith({ notifications: [notification] }, [broken]);
    expect((await checkOf(observe)(run, context)).map((f) => f.rule)).toEqual(['stdio.per-event-eof']);
  });

  it('never pass without a process that showed its EOF', async () => {
    const ended: EofReading = { verdict: 'no-evidence', why: 'it ended on its own' };
    const quiet = contextWith({ requests: [request] }, [ended]);
    await expect(checkOf(intercept)(run, quiet.context)).rejects.toThrow(/it ended on its own/);
    const none = contextWith({}, []);
    await expect(checkOf(observe)(run, none.context)).rejects.toThrow(Untested);
  });
});
