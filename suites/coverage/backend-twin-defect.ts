/**
 * The defect a backend twin plants, as the twin itself states it: the opening comment of
 * `fixtures/backends/<twin>.mjs` ("// Defect (AHP-RPC-001): the reply id is not the request id.").
 * Read from the file, so that what `explain` prints is what the twin's author wrote beside the code.
 */
import { readFileSync } from 'node:fs';

const BACKENDS = new URL('../../fixtures/backends/', import.meta.url);

/** The opening comment's text, one line, without its `Defect (<IDs>):` label. */
export function statedDefect(source: string): string {
  const lines: string[] = [];
  for (const line of source.split('\n')) {
    if (line.startsWith('#!')) continue;
    if (!line.startsWith('//')) break;
    lines.push(line.slice(2).trim());
  }
  return lines
    .join(' ')
    .replace(/^Defect \([^)]*\):\s*/, '')
    .trim();
}

/** The IDs the opening comment's `Defect (...)` label names (empty for a twin that is no defect). */
export function statedIds(source: string): string[] {
  const label = /^\/\/ Defect \(([^)]*)\)/.exec(source.replace(/^#!.*\n/, ''));
  return label ? [...(label[1] ?? '').matchAll(/AHPX?-[A-Z]+-\d{3}/g)].map((m) => m[0]) : [];
}

/** The source of backend twin `twin` (`twins/wrong-id`). */
export function backendTwinSource(twin: string): string {
  return readFileSync(new URL(`${twin}.mjs`, BACKENDS), 'utf8');
}
