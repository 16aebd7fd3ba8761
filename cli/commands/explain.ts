/**
 * `ahp-conformance explain <ID> [--json]`: everything the suite knows about one requirement, from
 * the one row that joins it (suites/coverage/knowledge.ts): the sentence with its document and
 * anchor, level, profiles, its cases on each side, the twins that must fail it with the defect
 * each plants, and the mock behaviours its cases use. Collected like `list`: nothing runs.
 */
import { closestName } from '../../protocol/closest-name.js';
import { REQUIREMENTS } from '../../protocol/requirements.js';
import {
  defaultRegistryInput,
  requirementKnowledge,
  type RequirementKnowledge,
} from '../../suites/coverage/index.js';
import { EXIT, UsageError, writeLine, type CliIo } from '../io.js';
import { parseArgv, type FlagSpec } from '../options/argv.js';
import type { Collection } from '../selection/collect.js';
import { collectAllSuites } from './list.js';
import type { Command } from './registry.js';

const HELP = `Usage: ahp-conformance explain <ID> [--json]

Prints what the suite knows about one requirement ID (AHP-FAIL-001, AHPX-SYN-001...): its
sentence in our words with the document and anchor it rests on, its level and profiles, the
harness and backend cases that check it, the broken twins that must fail it with the defect each
plants, and the mock behaviours its cases use. Runs nothing.
  --json   the same as one JSON object

Exit codes: 0 printed, 2 no such requirement ID (the message names the closest one).`;

const EXPLAIN_FLAGS: Readonly<Record<string, FlagSpec>> = {
  '--json': { key: 'json', kind: 'boolean' },
};

const IDS = REQUIREMENTS.map((r) => r.id);

/** The catalogue ID `typed` names (case aside), or a usage error naming the closest one. */
export function requirementId(typed: string): string {
  const id = typed.toUpperCase();
  if (IDS.includes(id)) return id;
  const closest = closestName(id, IDS);
  throw new UsageError(
    `there is no requirement "${typed}"; ${closest === undefined ? '`ahp-conformance list --coverage` lists every ID.' : `did you mean ${closest}?`}`,
  );
}

function listed(title: string, items: readonly string[]): string[] {
  if (items.length === 0) return [`${title}: none`];
  return [`${title} (${items.length}):`, ...items.map((i) => `  ${i}`)];
}

/**
 * The mock behaviours, or why none are listed: only harness cases use the mock (the backend suite
 * sends its own frames), and a case that builds its backends' replies at run time names none.
 */
function behavioursLine(k: RequirementKnowledge): string {
  if (k.behaviours.length > 0) return k.behaviours.join(', ');
  if (k.cases.harness.length === 0) return 'none (no harness case; only harness cases run the mock)';
  return 'not named (its cases script their backends at run time)';
}

/** The row for people. */
export function explainText(k: RequirementKnowledge): string {
  const { document, section, anchor } = k.location;
  const where = `${document}${section === undefined ? '' : ` § ${section}`}, anchor "${anchor}"`;
  const lines = [
    `${k.id} (${k.level}; binds the ${k.role === 'both' ? 'harness and the backend' : k.role}; profiles: ${k.profiles.join(', ')})`,
    `  ${k.sentence}`,
    `  ${where}`,
    '',
    ...listed('Harness cases', k.cases.harness),
    ...listed('Backend cases', k.cases.backend),
    ...listed(
      'Broken twins that must fail it',
      k.twins.map((t) => `${t.side}:${t.twin}: ${t.defect} (judged on ${t.selection})`),
    ),
  ];
  if (k.negatives.length > 0) {
    lines.push(
      ...listed(
        'In-test negatives',
        k.negatives.map((n) => `${n.file}: ${n.shows}`),
      ),
    );
  }
  lines.push(`Mock behaviours its cases use: ${behavioursLine(k)}`);
  if (k.excluded) lines.push(`Not checked (${k.excluded.kind}): ${k.excluded.reason}`);
  return lines.join('\n');
}

/** Builds the command over a case source (tests point it at fixtures). */
export function createExplainCommand(collect: () => Promise<Collection>): Command {
  return {
    name: 'explain',
    help: HELP,
    flags: Object.keys(EXPLAIN_FLAGS),
    async run(args, io: CliIo) {
      const argv = parseArgv(args, {
        flags: EXPLAIN_FLAGS,
        positionals: { name: 'requirement ID (e.g. explain AHP-FAIL-001)', min: 1 },
      });
      const [typed, extra] = argv.positionals as [string, string | undefined];
      if (extra !== undefined) {
        throw new UsageError(`unexpected argument "${extra}"; explain takes one requirement ID.`);
      }
      const id = requirementId(typed);
      const collection = await collect();
      if (collection.errors.length > 0) {
        for (const e of collection.errors) writeLine(io.stderr, `ahp-conformance explain: ${e}`);
        return EXIT.conformanceFailure;
      }
      const knowledge = requirementKnowledge(
        id,
        defaultRegistryInput(collection.cases),
      ) as RequirementKnowledge;
      writeLine(
        io.stdout,
        argv.values.json === true ? JSON.stringify(knowledge, null, 2) : explainText(knowledge),
      );
      return EXIT.ok;
    },
  };
}

/** The `explain` command over every suite that ships. */
export const explainCommand: Command = createExplainCommand(collectAllSuites);
