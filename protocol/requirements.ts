import { AHPX_REQUIREMENTS } from './requirements-ahpx.js';
import type { Requirement, RequirementLocation } from './requirement-types.js';

export type {
  Requirement,
  RequirementExclusion,
  RequirementLevel,
  RequirementLocation,
  RequirementRole,
} from './requirement-types.js';
export { SEED_COVERAGE, type SeedSentence } from './seed-coverage.js';

const BASE = ['base'];
const TI = ['tool-interception'];
const DRAFT = 'spec/draft/';
/**
 * The four IDs the draft's requirements file gained later (AUTH-001, CONTENT-001, CONTENT-002,
 * EDIT-001) are named by the draft's fixtures manifest and our protocol reference; their document
 * is the requirements file itself until a stored copy names the document that states them.
 */
const REQUIREMENTS_FILE = { document: `${DRAFT}requirements.json` };

/** A document of the draft and the section heading the sentence stands under. */
const at = (document: string, section: string) => ({ document, section });

function ahp(
  id: string,
  level: Requirement['level'],
  role: Requirement['role'],
  profiles: string[],
  summary: string,
  place: { document: string; section?: string },
): Requirement {
  return {
    id,
    level,
    summary,
    source: 'ahp',
    reference: `ahp: spec/draft/requirements.json ${id}`,
    location: { ...place, anchor: id },
    profiles,
    role,
  };
}

/** The 26 requirement IDs of the AHP draft (`requirements.json`), paraphrased, with their profiles. */
export const AHP_REQUIREMENTS: readonly Requirement[] = [
  ahp(
    'AHP-CORE-001',
    'MUST',
    'both',
    BASE,
    'A conformance claim states its role, every transport binding and every profile.',
    at(`${DRAFT}base/index.md`, 'Conformance profiles'),
  ),
  ahp(
    'AHP-CORE-002',
    'MUST',
    'both',
    BASE,
    'An implementation covers the Base profile and at least one capability profile.',
    at(`${DRAFT}base/index.md`, 'Conformance profiles'),
  ),
  ahp(
    'AHP-RPC-001',
    'MUST',
    'both',
    BASE,
    'Every message is one UTF-8 JSON-RPC 2.0 object; batches are not allowed.',
    at(`${DRAFT}base/versioning.md`, 'JSON-RPC'),
  ),
  ahp(
    'AHP-RPC-002',
    'MUST',
    'both',
    ['base', 'lifecycle-observation'],
    'Decisions travel as hooks/intercept requests; observations as hooks/observe notifications without an id.',
    at(`${DRAFT}base/versioning.md`, 'JSON-RPC'),
  ),
  ahp(
    'AHP-VER-001',
    'MUST',
    'both',
    BASE,
    'All params and every success result carry protocolVersion equal to the snapshot id.',
    at(`${DRAFT}base/versioning.md`, 'Versioning'),
  ),
  ahp(
    'AHP-CORE-003',
    'MUST',
    'both',
    BASE,
    'Unknown configuration and envelope fields are ignored while known ones are validated; an unknown effect field rejects the response.',
    at(`${DRAFT}base/versioning.md`, 'Unknown fields'),
  ),
  ahp(
    'AHP-EXT-001',
    'MUST',
    'both',
    BASE,
    'Extension keys are reverse-DNS names and core behaviour never hinges on them.',
    at(`${DRAFT}base/events.md`, 'Extensions'),
  ),
  ahp(
    'AHP-TB-001',
    'MUST',
    'harness',
    TI,
    'tool.before describes a call before it runs, with the required envelope, call and tool fields.',
    at(`${DRAFT}server/lifecycle-observation.md`, '`tool.before`'),
  ),
  ahp(
    'AHP-CAP-001',
    'MUST',
    'both',
    TI,
    'Only enforceable effects are advertised, and backends return only advertised effects.',
    at(`${DRAFT}base/capabilities.md`, 'Capabilities'),
  ),
  ahp(
    'AHP-CAP-002',
    'MUST',
    'harness',
    TI,
    'Each intercept carries capabilities.effects, and tool.before advertises deny.',
    at(`${DRAFT}base/capabilities.md`, 'Capabilities'),
  ),
  ahp(
    'AHP-DEC-001',
    'MUST',
    'both',
    TI,
    'A success result holds an ordered effects array of valid, advertised effects.',
    at(`${DRAFT}server/tool-interception.md`, 'Effect list'),
  ),
  ahp(
    'AHP-DEC-002',
    'MUST',
    'harness',
    TI,
    'Once a valid deny is accepted, the operation does not run.',
    at(`${DRAFT}server/tool-interception.md`, '`deny`'),
  ),
  ahp(
    'AHP-DEC-003',
    'MUST NOT',
    'harness',
    TI,
    'An empty effect list is no authorization and never bypasses host permissions, sandbox or approval.',
    at(`${DRAFT}server/tool-interception.md`, 'No-effect and authorization'),
  ),
  ahp(
    'AHP-COMP-001',
    'MUST',
    'harness',
    TI,
    'Interceptors run one at a time in registration order; deny, flow stop, interruption or a fail-closed failure ends the chain.',
    at(`${DRAFT}base/composition.md`, 'Interceptor order'),
  ),
  ahp(
    'AHP-FAIL-001',
    'MUST',
    'harness',
    TI,
    'Every interceptor declares fail-open or fail-closed and operational failures follow it.',
    at(`${DRAFT}base/failure.md`, 'Failure policy'),
  ),
  ahp(
    'AHP-FAIL-002',
    'MUST',
    'harness',
    TI,
    'The configured deadline is enforced and retries stay within the original deadline.',
    at(`${DRAFT}base/failure.md`, 'Deadlines'),
  ),
  ahp(
    'AHP-CORE-004',
    'MUST',
    'both',
    TI,
    'Retries keep event, session and call identities and content; backends tolerate duplicate delivery.',
    at(`${DRAFT}base/failure.md`, 'Duplicate delivery and retries'),
  ),
  ahp(
    'AHP-STDIO-001',
    'MUST',
    'both',
    ['stdio'],
    'stdio frames are one UTF-8 JSON object per line; stdout carries protocol only.',
    at(`${DRAFT}base/transports/stdio.md`, 'Framing'),
  ),
  ahp(
    'AHP-HTTP-001',
    'MUST',
    'both',
    ['http'],
    'HTTP carries one JSON-RPC object per POST with a JSON media type and at most one reply.',
    at(`${DRAFT}base/transports/http.md`, 'Request and response'),
  ),
  ahp(
    'AHP-REG-001',
    'MUST',
    'harness',
    BASE,
    'A registration names the snapshot protocolVersion and a non-empty ordered hooks list.',
    at(`${DRAFT}base/registration.md`, 'Document shape'),
  ),
  ahp(
    'AHP-REG-002',
    'MUST',
    'harness',
    BASE,
    'Events go only to subscriptions whose selector and mode match, except short-circuit observation of uncalled interceptors.',
    at(`${DRAFT}base/registration.md`, 'Subscription dispatch'),
  ),
  ahp(
    'AHP-SEC-001',
    'MUST NOT',
    'harness',
    BASE,
    'AHP never weakens host authorization; no effect only means no AHP denial.',
    at(`${DRAFT}base/index.md`, 'Authorization boundary'),
  ),
  ahp(
    'AHP-AUTH-001',
    'MUST',
    'harness',
    ['http'],
    'Portable endpoint authentication is bearer or oauth; mtls and workload are not portable.',
    REQUIREMENTS_FILE,
  ),
  ahp(
    'AHP-CONTENT-001',
    'MUST',
    'both',
    BASE,
    'Model-visible content uses canonical roles and ordered parts with inline text and no JSON part kind.',
    REQUIREMENTS_FILE,
  ),
  ahp(
    'AHP-CONTENT-002',
    'MUST',
    'harness',
    BASE,
    'Content selection and authorization cover text and attachments alike; only non-text, non-JSON media are uploaded.',
    REQUIREMENTS_FILE,
  ),
  ahp(
    'AHP-EDIT-001',
    'MUST',
    'harness',
    BASE,
    'Edits replace, append or shallow-merge within the advertised authority, chain serially and are accepted atomically.',
    REQUIREMENTS_FILE,
  ),
];

/** Every requirement this suite reports on: the AHP IDs, then our `AHPX-` IDs for unnumbered seed text. */
export const REQUIREMENTS: readonly Requirement[] = [...AHP_REQUIREMENTS, ...AHPX_REQUIREMENTS];

const BY_ID = new Map(REQUIREMENTS.map((r) => [r.id, r]));

/** Looks a requirement up by its exact ID. */
export function requirementById(id: string): Requirement | undefined {
  return BY_ID.get(id);
}

/** The requirements a profile holds. */
export function requirementsForProfile(profile: string): Requirement[] {
  return REQUIREMENTS.filter((r) => r.profiles.includes(profile));
}

/** The draft location of an AHP ID's sentence, or undefined for an ID the draft does not hold. */
export function draftLocation(id: string): RequirementLocation | undefined {
  const r = BY_ID.get(id);
  return r?.source === 'ahp' ? r.location : undefined;
}
