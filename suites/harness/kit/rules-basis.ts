/**
 * The shape of a harness rule and the documents of the published draft the rules cite. AHP IDs
 * are anchored at their ID; sentences outside an ID's block at their section heading; our AHPX
 * IDs (protocol/requirements-ahpx.ts) at the section of the draft's failure.md that matches the
 * seed's. Pure.
 */
import type { Basis, FindingRank } from '../../common/finding.js';
import type { RequirementLevel } from '../../../protocol/requirements.js';

/** One rule a harness check can find broken. */
export interface HarnessRule {
  /** The requirement ID the rule belongs to (the cases of that ID judge a cross-cutting rule). */
  requirement: string;
  basis: Basis;
  rank: FindingRank;
  /** One line true of every occurrence. */
  summary: string;
  /** The ways the rule can be broken, each with its own summary. */
  ways?: Readonly<Record<string, string>>;
  /**
   * A hygiene rule that holds in every call (ids, repeated bytes, what the audit and the driver
   * report about the wire, credentials): judged only in cases whose requirements include the
   * rule's; elsewhere a finding of it is kept in the evidence as noticed.
   */
  crossCutting?: true;
}

const SPEC = 'spec/draft/';
export const DOC = {
  failure: `${SPEC}base/failure.md`,
  events: `${SPEC}base/events.md`,
  versioning: `${SPEC}base/versioning.md`,
  stdio: `${SPEC}base/transports/stdio.md`,
  http: `${SPEC}base/transports/http.md`,
  capabilities: `${SPEC}base/capabilities.md`,
  composition: `${SPEC}base/composition.md`,
  registration: `${SPEC}base/registration.md`,
  baseIndex: `${SPEC}base/index.md`,
  capabilityAuth: `${SPEC}capability-auth.md`,
  toolInterception: `${SPEC}server/tool-interception.md`,
  lifecycle: `${SPEC}server/lifecycle-observation.md`,
  contentUpload: `${SPEC}content-upload.md`,
  lineage: `${SPEC}task-workspace-lineage.md`,
} as const;

/** A basis: where the sentence is, its level, and our paraphrase. */
export function basis(document: string, anchor: string, level: RequirementLevel, rule: string): Basis {
  return { document, anchor, level, rule };
}

/** A rule entry (so that the catalogues read as data). */
export function rule(
  requirement: string,
  at: Basis,
  rank: FindingRank,
  summary: string,
  extra: Pick<HarnessRule, 'ways' | 'crossCutting'> = {},
): HarnessRule {
  return { requirement, basis: at, rank, summary, ...extra };
}
