import { REQUIREMENTS, requirementById } from '../../protocol/requirements.js';

/** The profiles the catalogue names: a selector equal to one selects that profile's cases. */
export const PROFILES: readonly string[] = [...new Set(REQUIREMENTS.flatMap((r) => r.profiles))].sort();

/** What a case must expose to be selected. */
export interface SelectableCase {
  name: string;
  requirements: readonly string[];
  profiles: readonly string[];
}

/** One `--only`/`--skip`/known-failures entry: a requirement ID, a profile, or a case-name pattern. */
export type Selector =
  | { text: string; kind: 'requirement'; id: string }
  | { text: string; kind: 'profile'; profile: string }
  | { text: string; kind: 'pattern'; regex: RegExp };

export type SelectorParse = { ok: true; selector: Selector } | { ok: false; reason: string };

const ID_SHAPE = /^AHPX?-[A-Z]+-\d+$/;

/**
 * Turns a glob into a regex over case names. Case names read like paths, so `*` and `?` stop at
 * `/` while `**` crosses it; a pattern also selects everything below it (`AHP-FAIL-002/transport:http`
 * selects `AHP-FAIL-002/transport:http/...`), which is how people narrow a path.
 */
export function globToRegex(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] as string;
    if (ch === '*' && glob[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (ch === '*') source += '[^/]*';
    else if (ch === '?') source += '[^/]';
    else source += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^(?:${source})(?:/.*)?$`, 's');
}

/** Classifies one selector text; an ID-shaped text must name a catalogued requirement. */
export function parseSelector(text: string): SelectorParse {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'an empty selector selects nothing' };
  if (ID_SHAPE.test(trimmed)) {
    if (!requirementById(trimmed)) {
      return {
        ok: false,
        reason: `"${trimmed}" is not a requirement ID of the catalogue (run \`ahp-conformance list\` to see them)`,
      };
    }
    return { ok: true, selector: { text: trimmed, kind: 'requirement', id: trimmed } };
  }
  if (PROFILES.includes(trimmed))
    return { ok: true, selector: { text: trimmed, kind: 'profile', profile: trimmed } };
  return { ok: true, selector: { text: trimmed, kind: 'pattern', regex: globToRegex(trimmed) } };
}

/** True when the selector selects the case. */
export function selects(selector: Selector, testCase: SelectableCase): boolean {
  switch (selector.kind) {
    case 'requirement':
      return testCase.requirements.includes(selector.id);
    case 'profile':
      return testCase.profiles.includes(selector.profile);
    case 'pattern':
      return selector.regex.test(testCase.name);
  }
}
