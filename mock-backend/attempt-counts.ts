/**
 * Attempt numbers per method and event id, kept in the engine state as a persistent hash trie of
 * plain arrays (see `AttemptCounts` in model.ts). Counting one more delivery copies only the path
 * to its entry, a few short arrays, and leaves the given trie as it was: the engine stays a pure
 * function of its state, and a run that sees ever more event ids does not copy a table that grows
 * with them on every frame. Persistent collections from libraries are class instances, which the
 * state (plain data, printed as JSON) cannot hold.
 */
import type { AttemptCounts, AttemptEntry, AttemptSlot } from './model.js';

/** Hash bits that pick a slot at each level. */
const BITS = 4;
export const ATTEMPT_NODE_WIDTH = 1 << BITS;
const MASK = ATTEMPT_NODE_WIDTH - 1;
/** Levels until all 32 hash bits are used; keys that collide on all of them share a last-level list. */
const LEVELS = 32 / BITS;

/** No attempts counted. */
export const NO_ATTEMPTS: AttemptCounts = Object.freeze(emptyNode());

/** How many deliveries of `eventId` came with `method` so far (0 when none). */
export function attemptCount(counts: AttemptCounts, method: string, eventId: string): number {
  const hash = hashOf(method, eventId);
  let node = counts;
  for (let level = 0; level < LEVELS; level++) {
    const slot = node[slotIndex(hash, level)] ?? null;
    if (slot === null) return 0;
    if (!isNode(slot)) return sameKey(slot, method, eventId) ? slot.count : 0;
    if (level === LEVELS - 1) {
      const entry = (slot as readonly AttemptEntry[]).find((e) => sameKey(e, method, eventId));
      return entry?.count ?? 0;
    }
    node = slot;
  }
  return 0;
}

/** Counts one more delivery: the new trie and the delivery's attempt number (1 for the first). */
export function countAttempt(
  counts: AttemptCounts,
  method: string,
  eventId: string,
): { counts: AttemptCounts; attempt: number } {
  const hash = hashOf(method, eventId);
  const counted = { attempt: 1 };
  return { counts: withCounted(counts, 0, hash, method, eventId, counted), attempt: counted.attempt };
}

/** Every entry, in no particular order (for diagnostics and tests). */
export function attemptEntries(counts: AttemptCounts): AttemptEntry[] {
  const out: AttemptEntry[] = [];
  const walk = (node: readonly AttemptSlot[]): void => {
    for (const slot of node) {
      if (slot === null) continue;
      if (isNode(slot)) walk(slot);
      else out.push(slot);
    }
  };
  walk(counts);
  return out;
}

/** A copy of `node` with the key's count one higher; `counted.attempt` receives the new count. */
function withCounted(
  node: readonly AttemptSlot[],
  level: number,
  hash: number,
  method: string,
  eventId: string,
  counted: { attempt: number },
): AttemptSlot[] {
  const index = slotIndex(hash, level);
  const slot = node[index] ?? null;
  let replacement: AttemptSlot;
  if (level === LEVELS - 1) {
    replacement = withCountedInList(slot, hash, method, eventId, counted);
  } else if (slot === null) {
    replacement = { method, eventId, hash, count: 1 };
  } else if (isNode(slot)) {
    replacement = withCounted(slot, level + 1, hash, method, eventId, counted);
  } else if (sameKey(slot, method, eventId)) {
    counted.attempt = slot.count + 1;
    replacement = { ...slot, count: counted.attempt };
  } else {
    // Another key in the slot: both move one level down, where more of their hash bits part them.
    const below = emptyNode();
    below[slotIndex(slot.hash, level + 1)] = level + 1 === LEVELS - 1 ? [slot] : slot;
    replacement = withCounted(below, level + 1, hash, method, eventId, counted);
  }
  const copy = node.slice();
  copy[index] = replacement;
  return copy;
}

/** The last level: a slot holds the entries whose 32 hash bits are all the same. */
function withCountedInList(
  slot: AttemptSlot,
  hash: number,
  method: string,
  eventId: string,
  counted: { attempt: number },
): AttemptEntry[] {
  const list = slot === null ? [] : isNode(slot) ? (slot as readonly AttemptEntry[]) : [slot];
  const at = list.findIndex((e) => sameKey(e, method, eventId));
  if (at === -1) return [...list, { method, eventId, hash, count: 1 }];
  const entry = list[at] as AttemptEntry;
  counted.attempt = entry.count + 1;
  const copy = list.slice();
  copy[at] = { ...entry, count: counted.attempt };
  return copy;
}

function emptyNode(): AttemptSlot[] {
  return new Array<AttemptSlot>(ATTEMPT_NODE_WIDTH).fill(null);
}

function isNode(slot: AttemptSlot): slot is readonly AttemptSlot[] {
  return Array.isArray(slot);
}

function sameKey(entry: AttemptEntry, method: string, eventId: string): boolean {
  return entry.eventId === eventId && entry.method === method;
}

function slotIndex(hash: number, level: number): number {
  return (hash >>> (level * BITS)) & MASK;
}

/** FNV-1a over both strings (a separator between them), finished with a 32-bit avalanche mix. */
function hashOf(method: string, eventId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < method.length; i++) h = Math.imul(h ^ method.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ 0x10000, 0x01000193);
  for (let i = 0; i < eventId.length; i++) h = Math.imul(h ^ eventId.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
