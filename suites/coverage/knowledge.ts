/**
 * Everything the suite knows about one requirement, joined in one row: the catalogue's sentence
 * (our words, its document and anchor, level, role, profiles), the cases registered against the
 * ID on each side, the twins whose own declarations say they break it (with the defect each
 * plants and where it is judged), the in-test negatives, and the mock behaviours its cases use.
 * Nothing here is listed by hand: it is read from the catalogue, the cases and the twins. Pure.
 */
import type { RequirementLevel, RequirementLocation, RequirementRole } from '../../protocol/requirements.js';
import type { Exclusion, NegativeProof } from './proofs.js';
import { buildRegistry, type RegistryInput, type Side } from './registry.js';

/** A twin that must fail the requirement, and where. */
export interface KnownTwin {
  side: Side;
  twin: string;
  /** The defect the twin plants, in its own words. */
  defect: string;
  /** Where it is judged (suite files and a case-name pattern, or a backend binding). */
  selection: string;
}

/** One requirement's row, as `explain` prints it. */
export interface RequirementKnowledge {
  id: string;
  level: RequirementLevel;
  role: RequirementRole;
  profiles: string[];
  /** The sentence in our own words. */
  sentence: string;
  location: RequirementLocation;
  cases: Record<Side, string[]>;
  twins: KnownTwin[];
  negatives: NegativeProof[];
  /** The mock behaviours its cases use, by kind, sorted. */
  behaviours: string[];
  excluded?: Exclusion;
}

/** The row of `id`, or undefined when the catalogue holds no such ID: the registry's entry, with detail. */
export function requirementKnowledge(id: string, input: RegistryInput): RequirementKnowledge | undefined {
  const r = input.requirements.find((x) => x.id === id);
  const entry = r && buildRegistry({ ...input, requirements: [r] })[0];
  if (!r || !entry) return undefined;
  // Every declaration of a twin, not only its name: a twin judged in two places is listed twice.
  const twins = input.twins
    .filter((t) => t.breaks.includes(id))
    .map((t) => ({ side: t.side, twin: t.twin, defect: t.defect, selection: t.selection }));
  const behaviours = input.cases.filter((c) => c.requirements.includes(id)).flatMap((c) => c.behaviours ?? []);
  return {
    id,
    level: entry.level,
    role: entry.role,
    profiles: entry.profiles,
    sentence: r.summary,
    location: r.location,
    cases: entry.cases,
    twins,
    negatives: entry.negatives,
    behaviours: [...new Set(behaviours)].sort(),
    ...(entry.excluded ? { excluded: entry.excluded } : {}),
  };
}
