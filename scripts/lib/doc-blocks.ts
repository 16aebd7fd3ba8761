/**
 * The fenced blocks of a Markdown page, each with the doc-test marker that follows it: an HTML
 * comment readers do not see, on the next non-blank line after the closing fence, e.g.
 *
 *   <!-- doc-test: exit=1 stdout="Verdict: not conformant" -->
 *
 * Keys (values with spaces in double quotes):
 *   skip="reason"      not run here (a remote URL, the reader's own driver); counted with the reason
 *   slow               a full suite run: run by the slow step (scripts/docs-slow.e2e.ts) only
 *   exit=N             the exit status the command must end with (default 0)
 *   stdout="text"      a fragment its stdout must contain (stderr="text" likewise)
 *   serve="text"       runs until stopped: wait for the fragment on stdout, SIGTERM the command,
 *                      and nothing it started may be left running
 *   file="name"        a non-shell block: saved under that name in the page's folder
 *   copy="a,b"         repository files copied into the page's folder before the block
 *   creates="path"     a file the command must have written
 */

/** Languages of blocks a reader would paste into a shell or save and run: each needs a marker. */
export const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'console']);
export const SCRIPT_LANGS = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs', 'mts']);

export interface DocMarker {
  skip?: string;
  slow: boolean;
  exit: number;
  stdout?: string;
  stderr?: string;
  serve?: string;
  file?: string;
  copy: string[];
  creates?: string;
}

export interface DocBlock {
  /** Page path from the repository root. */
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  body: string;
  /** Absent: the block has no marker. */
  marker?: DocMarker;
  /** 1-based line of the marker comment, when there is one. */
  markerLine?: number;
  /** A marker that could not be read: the reason. */
  markerError?: string;
}

const KNOWN_KEYS = new Set(['skip', 'slow', 'exit', 'stdout', 'stderr', 'serve', 'file', 'copy', 'creates']);
const MARKER = /^<!--\s*doc-test:(.*?)-->\s*$/;

/** Reads the text after `doc-test:`; throws a sentence naming what is wrong. */
export function parseMarker(text: string): DocMarker {
  const marker: DocMarker = { slow: false, exit: 0, copy: [] };
  const pattern = /\s*([a-z]+)(?:=(?:"((?:[^"\\]|\\.)*)"|(\S+)))?/gy;
  let rest = text.trim();
  while (rest !== '') {
    pattern.lastIndex = 0;
    const m = pattern.exec(rest);
    if (!m || m[0].trim() === '') throw new Error(`cannot read the marker from "${rest}"`);
    rest = rest.slice(m[0].length).trim();
    const key = m[1] as string;
    const value = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3];
    if (!KNOWN_KEYS.has(key))
      throw new Error(`unknown marker key "${key}" (known: ${[...KNOWN_KEYS].join(', ')})`);
    if (key === 'slow') {
      marker.slow = true;
      continue;
    }
    if (value === undefined) throw new Error(`marker key "${key}" needs a value (${key}="...")`);
    if (key === 'exit') {
      if (!/^\d+$/.test(value)) throw new Error(`exit must be a number, not "${value}"`);
      marker.exit = Number(value);
    } else if (key === 'copy') marker.copy = value.split(',').map((v) => v.trim());
    else marker[key as 'skip' | 'stdout' | 'stderr' | 'serve' | 'file' | 'creates'] = value;
  }
  return marker;
}

/** Every fenced block of `markdown` (three backticks), with its marker. */
export function docBlocks(page: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i] as string);
    if (!open) continue;
    const start = i;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end] as string)) end++;
    const block: DocBlock = {
      page,
      line: start + 1,
      lang: open[1] ?? '',
      body: lines.slice(start + 1, end).join('\n') + '\n',
    };
    let next = end + 1;
    while (next < lines.length && (lines[next] as string).trim() === '') next++;
    const comment = MARKER.exec((lines[next] as string | undefined) ?? '');
    if (comment) {
      block.markerLine = next + 1;
      try {
        block.marker = parseMarker(comment[1] as string);
      } catch (e) {
        block.markerError = (e as Error).message;
      }
    }
    blocks.push(block);
    i = end;
  }
  return blocks;
}

/** A block a reader would run or save: it must say how the doc tests treat it. */
export function needsMarker(block: DocBlock): boolean {
  return SHELL_LANGS.has(block.lang) || SCRIPT_LANGS.has(block.lang);
}

/** How a block reads in a failure message: page, line and its first command line. */
export function where(block: DocBlock): string {
  const first = block.body.split('\n').find((l) => l.trim() !== '' && !l.trim().startsWith('#')) ?? '';
  return `${block.page}:${block.line} (${block.lang || 'plain'} block: ${first.trim().slice(0, 100)})`;
}
