/**
 * Test support: what the engine planned for one delivery, read from the recordings, in the terms
 * a client observes (status, headers, body bytes, how the exchange ends, when bytes are due).
 */
import type { Behaviour, RecordEntry, Scenario } from '../../model.js';
import { actionsFor, bytesWrittenFor } from '../../recording.js';

/** One planned exchange as a client should see it. */
export interface PlannedExchange {
  head?: { status: number; headers: Record<string, string> };
  body: Buffer;
  ending: 'end' | 'hang' | 'reset' | 'exit' | 'signal';
  /** Offsets (ms after arrival) of the first and last write, when there are writes. */
  firstWriteMs?: number;
  lastWriteMs?: number;
}

/** The planned exchange of `delivery`. */
export function plannedExchange(entries: readonly RecordEntry[], delivery: number): PlannedExchange {
  const actions = actionsFor(entries, delivery);
  const types = new Set(actions.map((a) => a.type));
  const writes = actions.filter((a) => a.type === 'write');
  const head = actions.find((a) => a.type === 'head');
  const ending = (['reset', 'exit', 'signal', 'hang'] as const).find((t) => types.has(t)) ?? 'end';
  const planned: PlannedExchange = { body: Buffer.from(bytesWrittenFor(entries, delivery)), ending };
  if (head?.type === 'head') planned.head = { status: head.status, headers: head.headers };
  if (writes.length > 0) {
    planned.firstWriteMs = Math.min(...writes.map((w) => w.afterMs));
    planned.lastWriteMs = Math.max(...writes.map((w) => w.afterMs));
  }
  return planned;
}

/** Caps every delay at `maxMs` so table tests over real time stay fast (late replies stay "later"). */
export function shortened(scenario: Scenario, maxMs = 300): Scenario {
  const cap = (b: Behaviour): Behaviour => {
    switch (b.kind) {
      case 'delay':
        return { ...b, ms: Math.min(b.ms, maxMs), then: cap(b.then) };
      case 'sequence':
        return { ...b, steps: b.steps.map(cap), ...(b.then ? { then: cap(b.then) } : {}) };
      case 'probability':
        return { ...b, behaviour: cap(b.behaviour), otherwise: cap(b.otherwise) };
      default:
        return b;
    }
  };
  return { ...scenario, rules: scenario.rules.map((r) => ({ ...r, behaviour: cap(r.behaviour) })) };
}
