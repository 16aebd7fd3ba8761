/**
 * The distinct problems of a run: failing and blocked cases grouped by what explains them. One
 * defect is one problem however many cases it touches: findings with the same rule broken the
 * same way (`findingKey`) are one problem, and each failing case is explained by its most
 * fundamental problem. Nothing of a case's own (its transport, lifecycle, policy or message) is
 * part of the key, so a defect seen on several transports or under both policies is one problem.
 * Pure; the reports (console, report.json, JUnit, HTML, Markdown) and the
 * self-tests read the same list.
 */
import type { RequirementLevel } from '../../protocol/requirements.js';
import { draftLocation, requirementById } from '../../protocol/requirements.js';
import { FINDING_RANK, findingKey, type Basis, type Finding, type FindingRank } from './finding.js';

/** What grouping needs of a case. */
export interface ProblemCase {
  name: string;
  status: string;
  requirements: readonly string[];
  level: RequirementLevel;
  errors?: readonly string[];
  findings?: readonly Finding[];
  blockedBy?: Finding;
}

/** One distinct problem of a run. */
export interface Problem {
  /** `p1`, `p2`, ... in the order listed (most fundamental first). */
  id: string;
  /** The grouping key (`findingKey`): the same in every shard of a run. */
  key: string;
  requirement: string;
  level: RequirementLevel;
  /** The sentence the problem breaks: where it is written, and what it says in our words. */
  sentence: { document: string; anchor: string; text: string };
  rank: FindingRank;
  /** One line: what is wrong. */
  summary: string;
  /** The first occurrence: which case, and what it found. */
  evidence: { case: string; message: string };
  /** The failing cases it explains, then the cases it blocked. */
  cases: string[];
  /** How many of `cases` failed (the rest are blocked). */
  failing: number;
}

/** The finding that stands for a failure that carried none (an assertion outside the kit). */
export function unclassifiedFinding(c: ProblemCase): Finding {
  const requirement = c.requirements[0] ?? 'unknown';
  const known = requirementById(requirement);
  const place = draftLocation(requirement);
  const basis: Basis = {
    document: place?.document ?? known?.reference ?? '',
    anchor: place?.anchor ?? requirement,
    level: c.level,
    rule: known?.summary ?? '',
  };
  const first = (c.errors?.[0] ?? 'the case failed').split('\n').find((l) => l.trim() !== '') ?? '';
  return {
    rule: `case:${requirement}`,
    requirement,
    level: c.level,
    basis,
    rank: FINDING_RANK.decision,
    summary: `${requirement} is not met`,
    message: first.replace(/^- /, ''),
  };
}

function findingsOf(c: ProblemCase): readonly Finding[] {
  return c.findings !== undefined && c.findings.length > 0 ? c.findings : [unclassifiedFinding(c)];
}

interface Candidate {
  finding: Finding;
  key: string;
  order: number;
  failing: string[];
  blocked: string[];
}

/**
 * Groups the failing and blocked cases of a run into problems: every blocker is a problem; then,
 * most fundamental first (ties: the one explaining more cases, then the first seen), a finding's
 * key becomes a problem while some failing case has it and no problem chosen before explains it.
 * Every failing and every blocked case ends up under exactly one problem. Problems that explain a
 * failing case are listed before those that only block cases.
 */
export function groupProblems(cases: readonly ProblemCase[]): Problem[] {
  const candidates = new Map<string, Candidate>();
  const candidate = (finding: Finding): Candidate => {
    const key = findingKey(finding);
    let entry = candidates.get(key);
    if (!entry) {
      entry = { finding, key, order: candidates.size, failing: [], blocked: [] };
      candidates.set(key, entry);
    }
    // A defect is as fundamental as its most fundamental sighting, whichever case came first.
    if (finding.rank < entry.finding.rank) entry.finding = finding;
    return entry;
  };
  const failing = cases.filter((c) => c.status === 'fail');
  for (const c of cases) {
    if (c.status === 'blocked' && c.blockedBy !== undefined) candidate(c.blockedBy).blocked.push(c.name);
  }
  for (const c of failing) {
    for (const f of findingsOf(c)) {
      const entry = candidate(f);
      if (!entry.failing.includes(c.name)) entry.failing.push(c.name);
    }
  }
  const ordered = [...candidates.values()].sort(
    (a, b) =>
      a.finding.rank - b.finding.rank ||
      b.failing.length + b.blocked.length - (a.failing.length + a.blocked.length) ||
      a.order - b.order,
  );
  const explained = new Set<string>();
  const chosen: { entry: Candidate; explains: string[] }[] = [];
  for (const entry of ordered) {
    const explains = entry.failing.filter((name) => !explained.has(name));
    if (explains.length === 0 && entry.blocked.length === 0) continue;
    explains.forEach((name) => explained.add(name));
    chosen.push({ entry, explains });
  }
  // A problem that explains no failing case (it only blocks) never leads: the ones that fail come first.
  const listed = [
    ...chosen.filter((c) => c.explains.length > 0),
    ...chosen.filter((c) => c.explains.length === 0),
  ];
  return listed.map(({ entry, explains }, i) => {
    const { finding } = entry;
    const first = explains[0] ?? entry.blocked[0] ?? '';
    const occurrence =
      cases
        .find((c) => c.name === first && c.status === 'fail')
        ?.findings?.find((f) => findingKey(f) === entry.key) ?? finding;
    return {
      id: `p${i + 1}`,
      key: entry.key,
      requirement: finding.requirement,
      level: finding.level,
      sentence: { document: finding.basis.document, anchor: finding.basis.anchor, text: finding.basis.rule },
      rank: finding.rank,
      summary: finding.summary,
      evidence: { case: first, message: occurrence.message },
      cases: [...explains, ...entry.blocked],
      failing: explains.length,
    };
  });
}

/** The problem each failing or blocked case is listed under, by case name. */
export function problemOfCase(problems: readonly Problem[]): Map<string, Problem> {
  const of = new Map<string, Problem>();
  for (const p of problems) for (const name of p.cases) if (!of.has(name)) of.set(name, p);
  return of;
}
