/** RFC 2119 strength of a requirement. */
export type RequirementLevel = 'MUST' | 'MUST NOT' | 'SHOULD' | 'SHOULD NOT' | 'MAY';

/** Who a requirement binds. */
export type RequirementRole = 'harness' | 'backend' | 'both';

/** The place of one requirement's sentence. */
export interface RequirementLocation {
  /**
   * The document: relative to the draft repository's root for an AHP ID; for an AHPX ID the seed
   * section and paragraph (`seed: Deadlines ¶2`).
   */
  document: string;
  /** The section heading the sentence stands under, when known. */
  section?: string;
  /** The anchor of the sentence: the ID itself in the draft, the locator quote in the seed. */
  anchor: string;
}

/** Why no case checks a requirement (reported as not checked, never as passed). */
export interface RequirementExclusion {
  /**
   * `claim-level`: a statement about the claim or the implementation as a whole, not behaviour
   * on the wire; `pending`: black-box testable, but no case exists yet (the reason says what is
   * missing).
   */
  kind: 'claim-level' | 'pending';
  reason: string;
}

/**
 * One row of the requirements catalogue: what the requirement says and where. What checks it
 * (cases, twins, the mock behaviours its cases use) registers against the ID and is joined to
 * the row by the coverage registry, never listed here by hand.
 */
export interface Requirement {
  id: string;
  /** Taken from the sentence's own keyword (or, for a plainly stated obligation, the seed's reading). */
  level: RequirementLevel;
  /** The sentence in our own words, one line. */
  summary: string;
  /** `ahp`: a numbered ID of the draft; `ahpx`: our ID for an unnumbered sentence of the seed. */
  source: 'ahp' | 'ahpx';
  /** Where the text lives: the draft's requirements file, or a seed section and paragraph. */
  reference: string;
  /** The document and anchor of the sentence. */
  location: RequirementLocation;
  profiles: string[];
  role: RequirementRole;
  /** For `ahpx` entries: a short locator quote of the seed sentence this ID stands for. */
  seedSentence?: string;
  /** Set only while no case checks the requirement: why. */
  exclusion?: RequirementExclusion;
}
