import { childPath, isJsonObject, type JsonValue, type Violation } from './json.js';

/** Canonical message roles of the draft. */
export const MESSAGE_ROLES = ['system', 'developer', 'user', 'assistant', 'tool'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

/** Content selection values for subscriptions and parts. */
export const SELECTIONS = ['body', 'metadata', 'omit'] as const;

const PART_KEYS = new Set([
  'id',
  'kind',
  'mediaType',
  'selection',
  'category',
  'text',
  'body',
  'gap',
  'synthesized',
]);
const MESSAGE_KEYS = new Set(['id', 'role', 'parts', 'synthesized']);

const CONTENT = 'AHP-CONTENT-001';

function nonEmpty(v: JsonValue | undefined): v is string {
  return typeof v === 'string' && v.length > 0;
}

/** True for a media type that is JSON (`application/json` or a `+json` suffix): never an attachment. */
export function isJsonMediaType(mediaType: string): boolean {
  const base = mediaType.split(';')[0]!.trim().toLowerCase();
  return base === 'application/json' || base.endsWith('+json');
}

/**
 * Checks one canonical part (§2.2 canonical content). Parts are closed objects: a role or a
 * parent identity on a part is invalid. Metadata and omit views carry neither text nor body;
 * a requested-but-missing body is `selection: "body"` with a `gap` and no text.
 */
export function validatePart(value: JsonValue, path: string, requirement = CONTENT): Violation[] {
  const out: Violation[] = [];
  const v = (p: string, message: string, req = requirement) =>
    out.push({ path: p, message, requirement: req });
  if (!isJsonObject(value)) {
    v(path, 'a part must be an object');
    return out;
  }
  for (const key of Object.keys(value)) {
    if (!PART_KEYS.has(key)) v(childPath(path, key), `unknown part field "${key}"`);
  }
  if (!nonEmpty(value.id)) v(childPath(path, 'id'), 'part id must be a non-empty string');
  if (typeof value.mediaType !== 'string' || value.mediaType.length === 0) {
    v(childPath(path, 'mediaType'), 'mediaType must be a non-empty string');
  }
  const selection = value.selection;
  if (typeof selection !== 'string' || !(SELECTIONS as readonly string[]).includes(selection)) {
    v(childPath(path, 'selection'), 'selection must be body, metadata or omit');
  }
  if ('category' in value && typeof value.category !== 'string')
    v(childPath(path, 'category'), 'category must be a string');
  if ('synthesized' in value && typeof value.synthesized !== 'boolean') {
    v(childPath(path, 'synthesized'), 'synthesized must be a boolean');
  }
  const hasGap = 'gap' in value;
  if (hasGap) {
    const gap = value.gap;
    if (
      !isJsonObject(gap) ||
      typeof gap.reason !== 'string' ||
      Object.keys(gap).some((k) => k !== 'reason')
    ) {
      v(childPath(path, 'gap'), 'gap must be {reason}');
    }
    if (selection !== 'body') v(childPath(path, 'gap'), 'a gap only marks a requested body that is missing');
  }
  const leak = selection === 'metadata' || selection === 'omit' || hasGap;
  if (value.kind === 'text') {
    if ('body' in value) v(childPath(path, 'body'), 'text is inline, never an upload reference');
    if (value.mediaType !== 'text/plain')
      v(childPath(path, 'mediaType'), 'a text part has mediaType text/plain');
    if ('text' in value && typeof value.text !== 'string')
      v(childPath(path, 'text'), 'text must be a string');
    if (leak && 'text' in value) {
      v(childPath(path, 'text'), 'a metadata, omit or gap view must not carry text', 'AHP-CONTENT-002');
    }
    if (selection === 'body' && !hasGap && typeof value.text !== 'string') {
      v(childPath(path, 'text'), 'a body-selected text part carries its text inline');
    }
  } else if (value.kind === 'attachment') {
    if ('text' in value) v(childPath(path, 'text'), 'an attachment carries no inline text');
    if (typeof value.mediaType === 'string') {
      if (value.mediaType.toLowerCase().startsWith('text/') || isJsonMediaType(value.mediaType)) {
        v(
          childPath(path, 'mediaType'),
          'attachments are only for non-text, non-JSON media',
          'AHP-CONTENT-002',
        );
      }
    }
    if ('body' in value) {
      const body = value.body;
      if (leak)
        v(childPath(path, 'body'), 'a metadata, omit or gap view must not carry a body', 'AHP-CONTENT-002');
      if (!isJsonObject(body) || !nonEmpty(body.ref) || Object.keys(body).some((k) => k !== 'ref')) {
        v(childPath(path, 'body'), 'an attachment body is exactly {ref}: bytes are never inline or edited');
      }
    } else if (selection === 'body' && !hasGap) {
      v(childPath(path, 'body'), 'a body-selected attachment carries body {ref}');
    }
  } else {
    v(childPath(path, 'kind'), 'part kind must be text or attachment (there is no JSON part)');
  }
  return out;
}

/** Checks a list of parts (the `instructions`/`summary` value shape). */
export function validatePartList(value: JsonValue, path: string, requirement = CONTENT): Violation[] {
  if (!Array.isArray(value)) return [{ path, message: 'expected a list of parts', requirement }];
  return value.flatMap((p, i) => validatePart(p, childPath(path, i), requirement));
}

/** Checks one canonical message `{id, role, parts[], synthesized?}` (closed). */
export function validateMessage(value: JsonValue, path: string, requirement = CONTENT): Violation[] {
  if (!isJsonObject(value)) return [{ path, message: 'a message must be an object', requirement }];
  const out: Violation[] = [];
  for (const key of Object.keys(value)) {
    if (!MESSAGE_KEYS.has(key))
      out.push({ path: childPath(path, key), message: `unknown message field "${key}"`, requirement });
  }
  if (!nonEmpty(value.id))
    out.push({ path: childPath(path, 'id'), message: 'message id must be a non-empty string', requirement });
  if (typeof value.role !== 'string' || !(MESSAGE_ROLES as readonly string[]).includes(value.role)) {
    out.push({
      path: childPath(path, 'role'),
      message: `role must be one of ${MESSAGE_ROLES.join(', ')}`,
      requirement,
    });
  }
  if ('synthesized' in value && typeof value.synthesized !== 'boolean') {
    out.push({ path: childPath(path, 'synthesized'), message: 'synthesized must be a boolean', requirement });
  }
  if (!Array.isArray(value.parts))
    out.push({ path: childPath(path, 'parts'), message: 'parts must be an array', requirement });
  else out.push(...validatePartList(value.parts, childPath(path, 'parts'), requirement));
  return out;
}

/** Checks a canonical message list (the `prompt`/`request`/`response`/`output` value shape, inject values). */
export function validateMessageList(value: JsonValue, path: string, requirement = CONTENT): Violation[] {
  if (!Array.isArray(value)) return [{ path, message: 'expected a list of canonical messages', requirement }];
  return value.flatMap((m, i) => validateMessage(m, childPath(path, i), requirement));
}

/**
 * Checks an MCP elicitation answer object as the form subset allows it: a flat object whose
 * values are strings, numbers, booleans or string arrays (no nested objects).
 */
export function validateElicitationContent(
  value: JsonValue,
  path: string,
  requirement = 'AHP-EDIT-001',
): Violation[] {
  if (!isJsonObject(value)) return [{ path, message: 'elicitation content must be an object', requirement }];
  const out: Violation[] = [];
  for (const [key, v] of Object.entries(value)) {
    const flat =
      typeof v === 'string' ||
      typeof v === 'number' ||
      typeof v === 'boolean' ||
      (Array.isArray(v) && v.every((x) => typeof x === 'string'));
    if (!flat) {
      out.push({
        path: childPath(path, key),
        message: 'form answers hold only primitives or string lists',
        requirement,
      });
    }
  }
  return out;
}
