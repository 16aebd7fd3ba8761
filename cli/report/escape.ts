/**
 * Characters XML 1.0 forbids even when escaped (C0 controls but tab, LF, CR; lone surrogates;
 * U+FFFE/U+FFFF). Backend output under test may hold any of them, and one such character makes
 * a whole JUnit file unreadable to CI, so they are replaced with a visible escape.
 */
const INVALID_XML =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function visible(ch: string): string {
  return `\\u${(ch.codePointAt(0) as number).toString(16).padStart(4, '0')}`;
}

/** Escapes text for XML or HTML content and attribute values (both quote styles). */
export function escapeMarkup(text: string): string {
  return text
    .replace(INVALID_XML, visible)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Cases listed once each, even when they assert several requirements (the report lists them under each). */
export function uniqueCases<C extends { name: string }>(
  requirements: readonly { cases: readonly C[] }[],
): C[] {
  const seen = new Map<string, C>();
  for (const r of requirements) for (const c of r.cases) if (!seen.has(c.name)) seen.set(c.name, c);
  return [...seen.values()];
}
