/**
 * The JSON report (`report.json`) as text: the report of `cli/report/report.schema.json`, pretty-printed, with every
 * given secret replaced wherever it appears (target, evidence, errors, notes). Role-agnostic.
 */
import type { JsonValue } from '../../protocol/json.js';
import { redactJson } from '../../suites/backend/index.js';
import type { Report } from './report.js';

/** Renders the report as JSON text; `secrets` (a bearer token...) never reach the file. */
export function renderJsonReport(report: Report, secrets: readonly string[] = []): string {
  const safe = redactJson(report as unknown as JsonValue, secrets);
  return `${JSON.stringify(safe, null, 2)}\n`;
}

/** Reads a report back, for tools and tests that consume `report.json`. */
export function parseJsonReport(text: string): Report {
  return JSON.parse(text) as Report;
}
