/**
 * A case's evidence as text blocks for people (Markdown and HTML): frame lists as transcripts,
 * one line per frame (step, time, direction, the frame as exchanged), everything else as JSON.
 * Each block is cut at a bound; report.json keeps all of it.
 */
import type { JsonValue } from '../../protocol/json.js';

/** Evidence longer than this is cut in the Markdown and HTML reports (report.json keeps all of it). */
export const MAX_EVIDENCE_CHARS = 20_000;

/** One block of evidence: what it is, and its text. */
export interface EvidenceBlock {
  title: string;
  /** `json` or `text`, for a fenced block's language. */
  language: 'json' | 'text';
  text: string;
}

/** Text cut at `MAX_EVIDENCE_CHARS`, saying how much was left out. */
export function cut(text: string, max = MAX_EVIDENCE_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n... (${text.length - max} more characters in report.json)`;
}

interface FrameLike {
  dir: string;
  text: string;
  step?: number;
  atMs?: number;
  at?: number;
  encoding?: string;
}

function isFrameList(value: JsonValue | undefined): value is JsonValue[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (f) =>
        f !== null &&
        typeof f === 'object' &&
        !Array.isArray(f) &&
        typeof f.dir === 'string' &&
        typeof f.text === 'string',
    )
  );
}

const ARROW: Record<string, string> = { out: '->', in: '<-', note: '##' };

/** A transcript as lines: step, time, direction, then the frame exactly as exchanged. */
export function transcript(frames: JsonValue[]): string {
  return frames
    .map((raw) => {
      const f = raw as unknown as FrameLike;
      const at = f.atMs ?? f.at;
      const where = [f.step === undefined ? '' : `#${f.step}`, at === undefined ? '' : `+${at}ms`]
        .filter((s) => s !== '')
        .join(' ');
      const enc = f.encoding === undefined ? '' : ` (${f.encoding})`;
      return `${where.padEnd(12)} ${ARROW[f.dir] ?? f.dir} ${f.text}${enc}`;
    })
    .join('\n');
}

/** The evidence as blocks: the JSON of its other fields first, then one transcript per frame list. */
export function evidenceBlocks(evidence: JsonValue): EvidenceBlock[] {
  if (evidence === null || typeof evidence !== 'object' || Array.isArray(evidence)) {
    return [{ title: 'Evidence', language: 'json', text: cut(JSON.stringify(evidence, null, 2)) }];
  }
  const blocks: EvidenceBlock[] = [];
  const rest: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(evidence)) {
    if (isFrameList(value))
      blocks.push({
        title: `Frames (${key}, ${value.length})`,
        language: 'text',
        text: cut(transcript(value)),
      });
    else if (value !== undefined) rest[key] = value;
  }
  if (Object.keys(rest).length > 0)
    blocks.unshift({ title: 'Evidence', language: 'json', text: cut(JSON.stringify(rest, null, 2)) });
  return blocks;
}
