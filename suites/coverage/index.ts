/** The coverage registry's public entry (the CLI's `list --coverage`, `explain` and the report use it). */
export {
  buildRegistry,
  catalogueTwins,
  coverageProblems,
  defaultRegistryInput,
  type CoverageCase,
  type CoverageEntry,
  type RegistryInput,
  type TwinProof,
} from './registry.js';
export {
  requirementKnowledge,
  type KnownTwin,
  type RequirementKnowledge,
} from './knowledge.js';
export { claimCoverage, type ProfileCoverage, type UncheckedRequirement } from './claim-coverage.js';
export { EXCLUSIONS, NEGATIVE_PROOFS, type Exclusion } from './proofs.js';
