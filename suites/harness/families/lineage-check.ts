/**
 * Event lineage judged from the mock's records (task-workspace-lineage.md, "Lineage and actual
 * changes"): a `parentEventId` on a frame the call sent names an event id the harness sent earlier
 * in the case (same harness, so the same source), never the event itself; and a step the case
 * linked to an earlier one (`CaseStep.parent`) names exactly the id that step's event went out under.
 */
import { isJsonObject, type JsonValue } from '../../../protocol/json.js';
import type { Finding } from '../../common/finding.js';
import type { CaseCheck, CaseRunContext, CaseStep } from '../kit/case-model.js';
import { finding } from '../kit/rules.js';
import { bytesText, type WireFrame } from '../kit/wire-records.js';

/** The `parentEventId` a frame's event carries, if any. */
function parentOf(frame: WireFrame): JsonValue | undefined {
  try {
    const message = JSON.parse(bytesText(frame.bytes)) as JsonValue;
    const params = isJsonObject(message) ? message.params : undefined;
    const event = isJsonObject(params) ? params.event : undefined;
    return isJsonObject(event) ? event.parentEventId : undefined;
  } catch {
    return undefined; // an unparseable frame is the framing checks' to judge
  }
}

function stepOf(context: CaseRunContext, index: number): CaseStep | undefined {
  return index === 0 ? context.testCase : context.testCase.then?.[index - 1];
}

/** The event ids of the intercept requests and observe notifications of one step, as recorded. */
function sentIds(context: CaseRunContext, index: number): string[] {
  return context
    .recordsNow(index)
    .frames.map((f) => f.eventId)
    .filter((id): id is string => id !== undefined);
}

/** Every frame the call sent names, as its parent, only an event the harness sent before it. */
export const LINEAGE_CHECK: CaseCheck = {
  name: 'parentEventId names an earlier event of the harness',
  async run(run, context) {
    await context.waitForFrames(run.index, 'hooks/intercept', 1);
    const frames = context.recordsNow(run.index).requests;
    const earlier = new Set(Array.from({ length: run.index }, (_, j) => sentIds(context, j)).flat());
    const linked = stepOf(context, run.index)?.parent;
    const given = linked === undefined ? undefined : sentIds(context, linked)[0];
    const problems: Finding[] = [];
    for (const frame of frames) {
      const parent = parentOf(frame);
      const at = `request ${frame.delivery} (event ${frame.eventId ?? '?'})`;
      if (linked !== undefined && parent === undefined) {
        problems.push(
          finding(
            'event.lineage',
            `${at} has no parentEventId; it was raised as the child of ${given ?? 'step ' + String(linked)}`,
            { way: 'missing' },
          ),
        );
      } else if (given !== undefined && parent !== given) {
        problems.push(
          finding(
            'event.lineage',
            `${at} names ${JSON.stringify(parent)} as its parent, not ${given}, the event it was raised as the child of`,
            { way: 'wrong' },
          ),
        );
      } else if (
        parent !== undefined &&
        (typeof parent !== 'string' || !earlier.has(parent) || parent === frame.eventId)
      ) {
        problems.push(
          finding(
            'event.lineage',
            `${at} names ${JSON.stringify(parent)} as its parent, no event the harness sent before it`,
            { way: 'unknown' },
          ),
        );
      }
    }
    return problems;
  },
};
