/**
 * What an upload endpoint mock (scenario `upload`, mock-backend) received and answered, one
 * entry per POST: its request line and headers, the exact body with its size and digest, the
 * framing faults the mock recorded, and the answer (status, the receipt when it sent one, and
 * when its first byte left, on the wall clock).
 */
import { sha256Hex } from '../../../protocol/content-upload.js';
import type { JsonValue } from '../../../protocol/json.js';
import { decodeBytes, type RecordEntry } from '../../../mock-backend/index.js';

/** One upload POST as the mock saw and answered it. */
export interface UploadPost {
  method: string;
  /** The request target: path and query. */
  path: string;
  headers: Readonly<Record<string, string>>;
  body: Uint8Array;
  size: number;
  sha256: string;
  /** The framing faults the mock recorded for it (empty when the framing is right). */
  framing: string[];
  arrivedAtWallMs: number;
  /** The status the mock answered, when it answered. */
  status?: number;
  /** The parsed body of a JSON answer (a receipt, scripted right or wrong). */
  receipt?: JsonValue;
  /** When the answer's head left (absent: not sent, or not yet). */
  answeredAtWallMs?: number;
}

/** The upload POSTs of a mock's recordings, in arrival order. */
export function uploadPosts(entries: readonly RecordEntry[]): UploadPost[] {
  return entries.flatMap((entry): UploadPost[] => {
    if (entry.type !== 'inbound') return [];
    const body = decodeBytes(entry.bytes);
    const post: UploadPost = {
      method: entry.http?.method ?? 'POST',
      path: entry.http?.path ?? '/',
      headers: entry.http?.headers ?? {},
      body,
      size: body.length,
      sha256: sha256Hex(body),
      framing: entries.flatMap((e) =>
        e.type === 'violation' && e.delivery === entry.delivery && e.code === 'upload-framing'
          ? [e.message]
          : [],
      ),
      arrivedAtWallMs: entry.at.wall,
    };
    const answer = entries.filter((e) => e.type === 'outbound' && e.delivery === entry.delivery);
    let text = '';
    for (const e of answer) {
      if (e.type !== 'outbound') continue;
      if (e.action.type === 'head') {
        post.status = e.action.status;
        if (e.performedAt) post.answeredAtWallMs = e.performedAt.wall;
      } else if (e.action.type === 'write') text += Buffer.from(decodeBytes(e.action.bytes)).toString('utf8');
    }
    if (post.status !== undefined && text !== '') {
      try {
        post.receipt = JSON.parse(text) as JsonValue;
      } catch {
        // not a receipt: a text answer (a refusal, a framing error)
      }
    }
    return [post];
  });
}
