/**
 * What a run checked of its claim, profile by profile (AHP-CORE-001: a report states what it
 * tested): every requirement of a claimed profile that binds the tested role is `checked` (a
 * case of it passed or failed), `untested` (no case of it ran to a verdict, with the reason), or
 * `excluded` (no case checks it, with the registry's reason). A claim is never more than that.
 */
import { requirementsForProfile, type RequirementRole } from '../../protocol/requirements.js';
import { EXCLUSIONS, type Exclusion } from './proofs.js';

/** A case result as the coverage of a claim needs it. */
export interface RanCase {
  requirements: string[];
  status: 'pass' | 'fail' | 'untested' | 'blocked' | 'skipped' | 'known-failure';
  note?: string;
  /** Requirements a passing case gave no evidence for, with the reason: it checked none of them. */
  untestedRequirements?: Readonly<Record<string, string>>;
}

/** A requirement with the reason it was not checked. */
export interface UncheckedRequirement {
  id: string;
  reason: string;
}

/** One claimed profile's requirements, by what the run did with them. */
export interface ProfileCoverage {
  profile: string;
  checked: string[];
  untested: UncheckedRequirement[];
  excluded: UncheckedRequirement[];
}

const VERDICTS = new Set<RanCase['status']>(['pass', 'fail', 'known-failure']);

function bindsRole(role: RequirementRole, tested: 'harness' | 'backend'): boolean {
  return role === 'both' || role === tested;
}

/** True when `c` reached a verdict on requirement `id` (a pass without its evidence did not). */
function checks(c: RanCase, id: string): boolean {
  return VERDICTS.has(c.status) && !(c.status === 'pass' && c.untestedRequirements?.[id] !== undefined);
}

function untestedReason(cases: RanCase[], id: string): string {
  if (cases.length === 0) return 'no case of it ran (not selected, or none applies to this target)';
  const note = cases.map((c) => (c.status === 'pass' ? c.untestedRequirements?.[id] : c.note)).find(Boolean);
  return note ? `no case reached a verdict: ${note}` : 'no case reached a verdict';
}

/**
 * The coverage of each claimed profile, in the claim's order. `exclusions` is the registry's
 * (today every requirement has cases, so it is empty); a test hands its own.
 */
export function claimCoverage(
  role: 'harness' | 'backend',
  profiles: readonly string[],
  cases: readonly RanCase[],
  exclusions: Readonly<Record<string, Exclusion>> = EXCLUSIONS,
): ProfileCoverage[] {
  return profiles.map((profile) => {
    const coverage: ProfileCoverage = { profile, checked: [], untested: [], excluded: [] };
    for (const r of requirementsForProfile(profile).filter((x) => bindsRole(x.role, role))) {
      const mine = cases.filter((c) => c.requirements.includes(r.id));
      const exclusion = exclusions[r.id];
      if (mine.some((c) => checks(c, r.id))) coverage.checked.push(r.id);
      else if (exclusion && mine.length === 0) coverage.excluded.push({ id: r.id, reason: exclusion.reason });
      else coverage.untested.push({ id: r.id, reason: untestedReason(mine, r.id) });
    }
    return coverage;
  });
}
