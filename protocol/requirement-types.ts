/** RFC 2119 strength of a requirement. */
export type RequirementLevel = 'MUST' | 'MUST NOT' | 'SHOULD' | 'SHOULD NOT' | 'MAY';

/** Who a requirement binds. */
export type RequirementRole = 'harness' | 'backend' | 'both';

/** One entry of the requirements catalogue. */
export interface Requirement {
  id: string;
  level: RequirementLevel;
  /** One line in our own words. */
  summary: string;
  /** `ahp`: a numbered ID of the draft; `ahpx`: our ID for an unnumbered sentence of the seed. */
  source: 'ahp' | 'ahpx';
  /** Where the text lives: the draft's requirements file, or a seed section and paragraph. */
  reference: string;
  profiles: string[];
  role: RequirementRole;
  /** For `ahpx` entries: a short locator quote of the seed sentence this ID stands for. */
  seedSentence?: string;
}
