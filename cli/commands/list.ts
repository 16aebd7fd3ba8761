/**
 * `ahp-conformance list [--json] [--coverage]`: every conformance case with its requirement IDs,
 * level and transports, collected through vitest without running a case (no target is needed);
 * with `--coverage`, the coverage registry instead (list-coverage.ts).
 */
import { REQUIREMENTS } from '../../protocol/requirements.js';
import type { SuiteSettings } from '../../suites/common/index.js';
import type { BackendTarget } from '../../suites/backend/index.js';
import { EXIT, writeLine, type CliIo } from '../io.js';
import { parseArgv, type FlagSpec } from '../options/argv.js';
import { COMMON_FLAGS } from '../options/resolve.js';
import { PACKAGE_ROOT } from '../runner/run-conformance.js';
import { collectSources, SUITE_GLOBS, type Collection, type CollectedCase } from '../selection/collect.js';
import { selectCases } from '../selection/select.js';
import { coverageJson, coverageOf, coverageText } from './list-coverage.js';
import { interopCounts, interopText } from './list-interop.js';
import { INTEROP_FLAG, INTEROP_HELP, resolveInterop } from '../options/interop-option.js';
import { interopCoverage } from '../../suites/interop/index.js';
import type { Command } from './registry.js';
import { counted } from '../report/count.js';

const HELP = `Usage: ahp-conformance list [--json] [--coverage] [--only <ID|profile|pattern>...] [--skip <ID|profile|pattern>...]

Lists every conformance case (harness and backend suites) with its requirement IDs, level and
transports, without running anything. --only/--skip preview a selection exactly as a run would
apply it (a selector that matches nothing is an error).
  --json      one JSON object: {"cases": [...], "requirements": [...]} (each requirement with its case count)
  --coverage  the coverage matrix instead: per requirement ID its level, cases, proofs (the broken
              twins that must fail it, or in-test negatives) or the reason no case checks it; then
              its problems (an ID with neither a case nor an exclusion, cases without a proof).
              Exit code 1 when there is a problem. With --json: {"requirements": [...], "problems": [...]}
${INTEROP_HELP}
              Lists, per scenario, the cases of ours that cover it or why none does
              (with --coverage: their counts; with --json: {"interop": [...]}).`;

const LIST_FLAGS: Readonly<Record<string, FlagSpec>> = {
  '--json': { key: 'json', kind: 'boolean' },
  '--coverage': { key: 'coverage', kind: 'boolean' },
  '--only': COMMON_FLAGS['--only'] as FlagSpec,
  '--skip': COMMON_FLAGS['--skip'] as FlagSpec,
  ...INTEROP_FLAG,
};

function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

/** `narrowed`: --only/--skip left cases out, so a requirement without a listed case may still have one. */
function human(cases: CollectedCase[], narrowed: boolean): string {
  const lines: string[] = [];
  for (const role of ['harness', 'backend', 'other'] as const) {
    const mine = cases.filter((c) => c.role === role);
    if (mine.length === 0) continue;
    lines.push(`${role} suite: ${counted(mine.length, 'case')}`);
    const rows = [
      ['case', 'requirements', 'level', 'transports'],
      ...mine.map((c) => [c.name, c.requirements.join(','), c.level, c.transports.join(',')]),
    ];
    lines.push(...table(rows).map((l) => `  ${l}`), '');
  }
  const covered = new Set(cases.flatMap((c) => c.requirements));
  const uncovered = REQUIREMENTS.filter((r) => !covered.has(r.id)).map((r) => r.id);
  lines.push(`${counted(cases.length, 'case')} over ${counted(covered.size, 'requirement')}.`);
  if (uncovered.length > 0 && !narrowed) lines.push(`No case yet for: ${uncovered.join(', ')}.`);
  return lines.join('\n');
}

function json(cases: CollectedCase[]): string {
  const requirements = REQUIREMENTS.map((r) => ({
    id: r.id,
    level: r.level,
    role: r.role,
    profiles: r.profiles,
    summary: r.summary,
    cases: cases.filter((c) => c.requirements.includes(r.id)).length,
  }));
  // The behaviours a case uses are `explain`'s; the listing keeps its fields.
  const listed = cases.map(({ behaviours: _behaviours, ...c }) => c);
  return JSON.stringify({ cases: listed, requirements }, null, 2);
}

const LISTING_SETTINGS: SuiteSettings = { timeoutScale: 1, seed: 0, runs: 1, protocolVersion: 'draft' };

/**
 * The backend suite declares the cases that apply to the target's binding, so it is collected
 * once per binding with a placeholder target; collection runs no case body, so nothing is
 * contacted.
 */
function placeholderBackends(): BackendTarget[] {
  const stdio = (lifecycle: 'persistent' | 'per_event'): BackendTarget => ({
    endpoint: { kind: 'stdio', lifecycle, command: '(listing)', args: [], cwd: PACKAGE_ROOT, env: {} },
    denyInput: {},
    modifyInput: {},
    deadlineMs: 1000,
  });
  return [
    stdio('persistent'),
    stdio('per_event'),
    {
      endpoint: { kind: 'http', url: 'http://127.0.0.1:9/' },
      denyInput: {},
      modifyInput: {},
      deadlineMs: 1000,
    },
  ];
}

/** Collects every suite that ships: the harness suite once, the backend suite per binding. */
export function collectAllSuites(): Promise<Collection> {
  return collectSources([
    { include: [SUITE_GLOBS.harness], provide: { ahpSettings: LISTING_SETTINGS } },
    ...placeholderBackends().map((target) => ({
      include: [SUITE_GLOBS.backend],
      provide: { ahpBackendTarget: target, ahpSettings: LISTING_SETTINGS },
    })),
  ]);
}

/** Builds the command over a case source (tests point it at fixtures). */
export function createListCommand(collect: () => Promise<Collection>): Command {
  return {
    name: 'list',
    help: HELP,
    flags: Object.keys(LIST_FLAGS),
    async run(args, io: CliIo) {
      const argv = parseArgv(args, { flags: LIST_FLAGS });
      const interop = await resolveInterop(argv.values.interop, io.cwd);
      const collection = await collect();
      if (collection.errors.length > 0) {
        for (const e of collection.errors) writeLine(io.stderr, `ahp-conformance list: ${e}`);
        return EXIT.conformanceFailure;
      }
      const only = (argv.values.only as string[] | undefined) ?? [];
      const skip = (argv.values.skip as string[] | undefined) ?? [];
      const cases = selectCases(collection.cases, { only, skip });
      const narrowed = only.length + skip.length > 0;
      const asJson = argv.values.json === true;
      const scenarios =
        interop &&
        interopCoverage(
          interop.sets,
          cases.filter((c) => c.role === 'harness').map((c) => c.name),
        );
      if (argv.values.coverage === true) {
        const { registry, problems } = coverageOf(cases);
        if (asJson) {
          const body = JSON.parse(coverageJson(registry, problems)) as Record<string, unknown>;
          writeLine(io.stdout, JSON.stringify(scenarios ? { ...body, interop: scenarios } : body, null, 2));
        } else {
          const text = coverageText(registry, problems, table);
          writeLine(io.stdout, scenarios ? `${text}\n${interopCounts(scenarios)}` : text);
        }
        return problems.length > 0 ? EXIT.conformanceFailure : EXIT.ok;
      }
      if (scenarios) {
        writeLine(
          io.stdout,
          asJson ? JSON.stringify({ interop: scenarios }, null, 2) : interopText(scenarios, table),
        );
        return EXIT.ok;
      }
      writeLine(io.stdout, asJson ? json(cases) : human(cases, narrowed));
      return EXIT.ok;
    },
  };
}

/** The `list` command over every suite that ships. */
export const listCommand: Command = createListCommand(collectAllSuites);
