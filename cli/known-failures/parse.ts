import { parseSelector, type Selector } from '../selection/selector.js';

/** One baseline entry: a case selector and why the case is expected to fail. */
export interface KnownFailureEntry {
  pattern: string;
  reason: string;
  /** 1-based line in the file, for messages. */
  line: number;
  selector: Selector;
}

/** A parsed `--known-failures` file. */
export interface KnownFailures {
  /** The path as given (messages and reports show it). */
  file: string;
  /** The absolute path it was read from, when it was read from a file. */
  path?: string;
  entries: KnownFailureEntry[];
  /** SHA-256 of the file's text, when it was read from a file: shards compare it at `merge`. */
  sha256?: string;
}

export type KnownFailuresParse = { ok: true; baseline: KnownFailures } | { ok: false; message: string };

/**
 * Parses a known-failures file: one `<pattern> # <reason>` per line, where the pattern is a
 * requirement ID, a profile or a case-name glob; blank lines and lines starting with `#` are
 * comments. The reason is mandatory so a baseline always says why a failure is tolerated.
 * Returns the first problem as one sentence naming the file, the line and the fix.
 */
export function parseKnownFailures(text: string, file: string): KnownFailuresParse {
  const entries: KnownFailureEntry[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const where = `the known-failures file "${file}" line ${line}`;
    const hash = trimmed.indexOf('#');
    const pattern = (hash === -1 ? trimmed : trimmed.slice(0, hash)).trim();
    const reason = hash === -1 ? '' : trimmed.slice(hash + 1).trim();
    if (reason === '') {
      return {
        ok: false,
        message: `${where} gives no reason for "${pattern}"; write it as "<pattern> # <why it fails>".`,
      };
    }
    const parsed = parseSelector(pattern);
    if (!parsed.ok) return { ok: false, message: `${where}: ${parsed.reason}; fix or remove that line.` };
    const previous = entries.find((e) => e.pattern === pattern);
    if (previous) {
      return {
        ok: false,
        message: `${where} repeats "${pattern}" from line ${previous.line}; keep one of them.`,
      };
    }
    entries.push({ pattern, reason, line, selector: parsed.selector });
  }
  return { ok: true, baseline: { file, entries } };
}
