/**
 * The table of docs/harness-authors.md that says what a field the driver leaves out of its answer
 * gives: which rules read it, and which requirements are then untested in the cases that name
 * them (suites/harness/kit/rule-evidence.ts). The doc test compares the page's table with this
 * one, so the page cannot drift from what the suite declares.
 */
import {
  REPORTED_FIELDS,
  requirementEvidence,
  RULE_EVIDENCE,
  type ReportedField,
} from '../../suites/harness/kit/rule-evidence.js';
import { HARNESS_RULES, type RuleKey } from '../../suites/harness/kit/rules.js';
import { markdownTable, markdownTableInPage } from './markdown-table.js';

/** The table's header cells. */
export const UNREPORTED_FIELD_HEADER = [
  'field left out',
  'rules that read it',
  'requirements untested without it',
];

const ids = (list: readonly string[]) => list.map((id) => `\`${id}\``).join(', ');

function untestedCell(field: ReportedField, requirements: readonly string[]): string {
  const alone = requirements.filter((id) => requirementEvidence(id)?.length === 1);
  const withOthers = requirements.filter((id) => (requirementEvidence(id)?.length ?? 0) > 1);
  const checkedAnyway = requirements.filter((id) => requirementEvidence(id)?.length === 0);
  const parts: string[] = [];
  if (alone.length > 0) parts.push(ids(alone));
  for (const id of withOthers) {
    const others = (requirementEvidence(id) ?? []).filter((f) => f !== field);
    parts.push(
      `\`${id}\` when the ${others.map((f) => REPORTED_FIELDS[f].words).join(' and the ')} is missing too`,
    );
  }
  if (checkedAnyway.length > 0)
    parts.push(`none (${ids(checkedAnyway)} also checked on what every answer holds)`);
  return parts.join('; ');
}

/** Every row of the table as cells, the header first. */
export function unreportedFieldRows(): string[][] {
  const keys = Object.keys(RULE_EVIDENCE) as RuleKey[];
  return [
    UNREPORTED_FIELD_HEADER,
    ...(Object.keys(REPORTED_FIELDS) as ReportedField[]).map((field) => {
      const rules = keys.filter((k) => (RULE_EVIDENCE[k] as readonly ReportedField[]).includes(field));
      const requirements = [...new Set(rules.map((k) => HARNESS_RULES[k].requirement))].sort();
      return [
        REPORTED_FIELDS[field].where,
        rules.map((k) => `\`${k}\` (${HARNESS_RULES[k].requirement})`).join(', '),
        untestedCell(field, requirements),
      ];
    }),
  ];
}

/** The table as Markdown (before prettier aligns it). */
export function unreportedFieldTable(): string {
  return markdownTable(unreportedFieldRows());
}

/** The cells of this table in `page`; [] when none. */
export function unreportedFieldTableInPage(page: string): string[][] {
  return markdownTableInPage(page, UNREPORTED_FIELD_HEADER[0] as string);
}
