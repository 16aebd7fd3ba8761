/**
 * Noise on stdout: a line that is not a JSON-RPC message (a banner, a log line, a progress
 * indicator, an empty line). The draft forbids it (AHP-STDIO-001), and the suite says so once, in
 * the cases that judge stdout; every exchange reads past it, so that one log line does not end
 * the exchange it interrupts or leave the rest of the run unjudged. What a line is decides, never
 * when it arrives: noise after a notification is not a reply to it.
 */
import { isJsonObject } from '../../protocol/json.js';
import type { NdjsonItem } from '../../protocol/ndjson.js';
import { NOISE_SUMMARY, type StepFault } from './faults.js';
import { RULES } from './rules.js';

/** Members only a JSON-RPC message has; an object with none of them is not one. */
const JSON_RPC_MEMBERS = ['jsonrpc', 'id', 'method', 'result', 'error'];

/**
 * True for a stdout line that is no JSON-RPC message: not JSON at all, empty, or a JSON value that
 * is neither an object with a JSON-RPC member nor an array (a batch). A fragment of a
 * pretty-printed message, bytes that are not UTF-8 and an oversized line stay protocol faults:
 * they are a message written wrongly, judged where they stand.
 */
export function isNoiseLine(item: NdjsonItem): boolean {
  if (item.kind === 'fault') return item.code === 'not-json' || item.code === 'empty-line';
  const value = item.value;
  if (Array.isArray(value)) return false;
  return !isJsonObject(value) || !JSON_RPC_MEMBERS.some((m) => Object.hasOwn(value, m));
}

/** Longest excerpt of a noise line quoted in a fault (the transcript keeps all of it). */
const NOISE_EXCERPT_CHARS = 120;

/** The fault of the noise lines read during one step (at index `step`), if it had any. */
export function noiseFault(step: number, lines: readonly Uint8Array[]): StepFault | undefined {
  if (lines.length === 0) return undefined;
  const first = Buffer.from(lines[0] as Uint8Array).toString('utf8');
  const excerpt = first.length > NOISE_EXCERPT_CHARS ? `${first.slice(0, NOISE_EXCERPT_CHARS)}...` : first;
  const more = lines.length > 1 ? ` (and ${lines.length - 1} more)` : '';
  return {
    requirement: 'AHP-STDIO-001',
    step: step + 1,
    stage: 'transport',
    rule: RULES.stdout,
    way: 'non-protocol-line',
    summary: NOISE_SUMMARY,
    message: `the backend wrote ${lines.length} line(s) on stdout that are not JSON-RPC messages: ${JSON.stringify(excerpt)}${more}`,
  };
}
