/**
 * Everything the suite knows about one requirement, joined in one row: the catalogue's sentence
 * (our words, its document and anchor, level, role, profiles), the cases registered against the
 * ID on each side, the twins whose own declarations say they break it (with the defect each
 * plants and where it is judged), the in-test negatives, and the mock behaviours its cases use.
 * Nothing here is listed by hand: it is read from the catalogue, the cases and the twins. Pure.
 */
import type { RequirementLevel, RequirementLocation, RequirementRole } from '../../protocol/requirements.js';
import type { Exclusion, NegativeProof } from './proofs.js';
import type { CoverageCase, RegistryInput, Side } from './registry.js';

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

/** A case as the knowledge row needs it (the registry's, with the behaviours it uses). */
export type KnownCase = CoverageCase;

/** The row of `id`, or undefined when the catalogue holds no such ID. */
export function requirementKnowledge(
  id: string,
  input: Omit<RegistryInput, 'cases'> & { cases: readonly KnownCase[] },
): RequirementKnowledge | undefined {
  const r = input.requirements.find((x) => x.id === id);
  if (!r) return undefined;
  const mine = input.cases.filter((c) => c.requirements.includes(id));
  const casesOn = (side: Side) => mine.filter((c) => c.role === side).map((c) => c.name);
  const twins = input.twins
    .filter((t) => t.breaks.includes(id))
    .map((t) => ({ side: t.side, twin: t.twin, defect: t.defect, selection: t.selection }));
  const excluded = input.exclusions[id];
  return {
    id,
    level: r.level,
    role: r.role,
    profiles: r.profiles,
    sentence: r.summary,
    location: r.location,
    cases: { harness: casesOn('harness'), backend: casesOn('backend') },
    twins,
    negatives: [...(input.negatives[id] ?? [])],
    behaviours: [...new Set(mine.flatMap((c) => c.behaviours ?? []))].sort(),
    ...(excluded ? { excluded } : {}),
  };
}
