/**
 * Where each AHP requirement's normative sentence lives in the draft: the document of
 * `spec/draft/requirements.json` that states it, the section heading, and the anchor (the ID
 * itself). Read from the draft's requirements file (protocolVersion "draft"); the four IDs that
 * file gained later (AUTH-001, CONTENT-001, CONTENT-002, EDIT-001) are named by the draft's
 * fixtures manifest and our protocol reference, and their document is given as the requirements
 * file itself until a stored copy names it.
 */

/** The place of one requirement's sentence. */
export interface RequirementLocation {
  /** The document, relative to the draft repository's root. */
  document: string;
  /** The section heading the sentence stands under, when known. */
  section?: string;
  /** The anchor of the sentence in that document. */
  anchor: string;
}

const BASE = 'spec/draft/base/';
const REQUIREMENTS_FILE = 'spec/draft/requirements.json';

const at = (document: string, section: string) => ({ document, section });

const DRAFT_DOCUMENTS: Readonly<Record<string, { document: string; section?: string }>> = {
  'AHP-CORE-001': at(`${BASE}index.md`, 'Conformance profiles'),
  'AHP-CORE-002': at(`${BASE}index.md`, 'Conformance profiles'),
  'AHP-RPC-001': at(`${BASE}versioning.md`, 'JSON-RPC'),
  'AHP-RPC-002': at(`${BASE}versioning.md`, 'JSON-RPC'),
  'AHP-VER-001': at(`${BASE}versioning.md`, 'Versioning'),
  'AHP-CORE-003': at(`${BASE}versioning.md`, 'Unknown fields'),
  'AHP-EXT-001': at(`${BASE}events.md`, 'Extensions'),
  'AHP-TB-001': at('spec/draft/server/lifecycle-observation.md', '`tool.before`'),
  'AHP-CAP-001': at(`${BASE}capabilities.md`, 'Capabilities'),
  'AHP-CAP-002': at(`${BASE}capabilities.md`, 'Capabilities'),
  'AHP-DEC-001': at('spec/draft/server/tool-interception.md', 'Effect list'),
  'AHP-DEC-002': at('spec/draft/server/tool-interception.md', '`deny`'),
  'AHP-DEC-003': at('spec/draft/server/tool-interception.md', 'No-effect and authorization'),
  'AHP-COMP-001': at(`${BASE}composition.md`, 'Interceptor order'),
  'AHP-FAIL-001': at(`${BASE}failure.md`, 'Failure policy'),
  'AHP-FAIL-002': at(`${BASE}failure.md`, 'Deadlines'),
  'AHP-CORE-004': at(`${BASE}failure.md`, 'Duplicate delivery and retries'),
  'AHP-STDIO-001': at(`${BASE}transports/stdio.md`, 'Framing'),
  'AHP-HTTP-001': at(`${BASE}transports/http.md`, 'Request and response'),
  'AHP-REG-001': at(`${BASE}registration.md`, 'Document shape'),
  'AHP-REG-002': at(`${BASE}registration.md`, 'Subscription dispatch'),
  'AHP-SEC-001': at(`${BASE}index.md`, 'Authorization boundary'),
  'AHP-AUTH-001': { document: REQUIREMENTS_FILE },
  'AHP-CONTENT-001': { document: REQUIREMENTS_FILE },
  'AHP-CONTENT-002': { document: REQUIREMENTS_FILE },
  'AHP-EDIT-001': { document: REQUIREMENTS_FILE },
};

/** The draft location of an AHP ID's sentence, or undefined for an ID the draft does not hold. */
export function draftLocation(id: string): RequirementLocation | undefined {
  const place = DRAFT_DOCUMENTS[id];
  return place ? { ...place, anchor: id } : undefined;
}

/** Every AHP ID with a draft location. */
export const LOCATED_IDS: readonly string[] = Object.keys(DRAFT_DOCUMENTS);
