// Runs our protocol validators over the upstream AHP draft fixtures and compares each verdict
// with the manifest's expectation. Usage: tsx scripts/check-upstream-fixtures.ts <fixtures-dir>
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import {
  NdjsonDecoder,
  isJsonObject,
  validateCapabilitiesRequest,
  validateCapabilitiesResponse,
  validateInterceptRequest,
  validateInterceptResponse,
  validateObserveNotification,
  validateRegistration,
  type Capabilities,
  type JsonObject,
  type JsonValue,
  type Violation,
} from '../protocol/index.js';
import { isMainModule } from './lib/script-main.js';

/** One manifest case, as far as we read it. */
export interface FixtureCase {
  id: string;
  path: string;
  binding: string;
  schema: string;
  expectedValid: boolean;
  aggregateExpectedValid?: boolean;
  contextualExpectedValid?: boolean;
  editContext?: { event: string; current?: JsonValue; mode?: string; action?: string };
  requirements: string[];
  sha256: string;
}

/** A fixture we judge wrong against the protocol reference, with the reason; never a weakened validator. */
export interface AllowlistEntry {
  id: string;
  reason: string;
}

/**
 * Cases whose upstream expectation we believe is wrong. Empty today: every claimed case agrees.
 * An entry whose case agrees anyway is reported as stale and fails the run.
 */
export const ALLOWLIST: readonly AllowlistEntry[] = [];

/** Kinds we judge and claim. Content selection and per-event catalogue payloads are only checked lightly. */
const CLAIMED = new Set([
  'registration',
  'stdio',
  'intercept-request',
  'intercept-response',
  'effects',
  'error-response',
  'observe-envelope',
  'discovery',
]);

export interface Verdict {
  id: string;
  kind: string;
  basis: 'expectedValid' | 'aggregateExpectedValid' | 'contextualExpectedValid';
  expected: boolean;
  judged: boolean;
  violations: Violation[];
}

export interface CheckReport {
  verdicts: Verdict[];
  missing: string[];
  hashMismatches: string[];
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? listFiles(full) : [full];
  });
}

function parse(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

const CONTENT_CASE =
  /content|text|attachment|metadata|omit|gap|hash|json-part|role|inline|prompt|file-no-role/;

/** Decides what a case exercises, from its binding, its message and its name. */
export function kindOf(c: FixtureCase, message: JsonValue | undefined): string {
  if (c.binding === 'registration-json') return 'registration';
  if (c.binding === 'stdio-jsonl') return 'stdio';
  if (!isJsonObject(message)) return 'intercept-response';
  const name = c.id.replace(/^http\./, '');
  if (message.method === 'hooks/intercept') return 'intercept-request';
  if (message.method === 'hooks/capabilities') return 'discovery';
  if (message.method === 'hooks/observe') {
    if (name.startsWith('catalogue-')) return 'catalogue-depth';
    const contentReq = c.requirements.some((r) => r.startsWith('AHP-CONTENT-'));
    // MCP gap cases test the tool.before envelope, not content, although their names say gap.
    const content = contentReq || (CONTENT_CASE.test(name) && !name.startsWith('mcp-'));
    return content ? 'content-depth' : 'observe-envelope';
  }
  if ('error' in message) return 'error-response';
  if (isJsonObject(message.result) && 'manifest' in message.result) return 'discovery';
  return isJsonObject(message.result) &&
    Array.isArray(message.result.effects) &&
    message.result.effects.length > 0
    ? 'effects'
    : 'intercept-response';
}

/** Validates one JSON-RPC message by what it is: request, notification or response. */
export function validateMessage(message: JsonValue): Violation[] {
  if (isJsonObject(message) && message.method === 'hooks/intercept') return validateInterceptRequest(message);
  if (isJsonObject(message) && message.method === 'hooks/observe')
    return validateObserveNotification(message);
  if (isJsonObject(message) && message.method === 'hooks/capabilities')
    return validateCapabilitiesRequest(message);
  if (isJsonObject(message) && isJsonObject(message.result) && 'manifest' in message.result) {
    return validateCapabilitiesResponse(message);
  }
  return validateInterceptResponse(message);
}

function judgeStdio(bytes: Uint8Array): Violation[] {
  const decoder = new NdjsonDecoder();
  const items = [...decoder.push(bytes), ...decoder.end()];
  return items.flatMap((item, line) =>
    item.kind === 'fault'
      ? [{ path: `line ${line + 1}`, message: `framing: ${item.message}`, requirement: 'AHP-STDIO-001' }]
      : validateMessage(item.value),
  );
}

/** Judges a modify response at the boundary its edit context names (the response's edits advertised). */
function judgeInContext(message: JsonValue, ctx: NonNullable<FixtureCase['editContext']>): Violation[] {
  const effects = isJsonObject(message) && isJsonObject(message.result) ? message.result.effects : undefined;
  const list = Array.isArray(effects) ? effects.filter(isJsonObject) : [];
  const capabilities: Capabilities = { effects: [...new Set(list.map((e) => String(e.type)))] };
  const targets = list
    .filter((e) => e.type === 'modify' && typeof e.target === 'string')
    .map((e) => e.target as string);
  if (targets.length > 0)
    capabilities.modify = Object.fromEntries(targets.map((t) => [t, { replace: true, merge: true }]));
  const event: JsonObject = { type: ctx.event };
  if (ctx.mode || ctx.action) event.elicitation = { mode: ctx.mode ?? '', action: ctx.action ?? '' };
  return validateInterceptResponse(message, { eventType: ctx.event, capabilities, event });
}

/** Runs every manifest case found under `dir` (missing files are matched by SHA-256 where possible). */
export function checkUpstreamFixtures(dir: string): CheckReport {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { cases: FixtureCase[] };
  const byHash = new Map<string, string>();
  for (const file of listFiles(dir))
    if (!file.endsWith('manifest.json')) byHash.set(sha256(readFileSync(file)), file);
  const report: CheckReport = { verdicts: [], missing: [], hashMismatches: [] };
  for (const c of manifest.cases) {
    const local = join(dir, c.path.replace(/^fixtures\/draft\//, ''));
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(local);
    } catch {
      const twin = byHash.get(c.sha256);
      if (!twin) {
        report.missing.push(c.id);
        continue;
      }
      bytes = readFileSync(twin);
    }
    if (sha256(bytes) !== c.sha256) report.hashMismatches.push(c.id);
    const text = new TextDecoder().decode(bytes);
    const message = c.binding === 'stdio-jsonl' ? undefined : parse(text);
    const kind = kindOf(c, message);
    const push = (basis: Verdict['basis'], expected: boolean, violations: Violation[]) =>
      report.verdicts.push({ id: c.id, kind, basis, expected, judged: violations.length === 0, violations });
    let violations: Violation[];
    if (c.binding === 'stdio-jsonl') violations = judgeStdio(bytes);
    else if (message === undefined)
      violations = [{ path: '$', message: 'not JSON', requirement: 'AHP-RPC-001' }];
    else if (c.binding === 'registration-json') {
      const check = validateRegistration(message);
      violations = check.ok ? [] : check.violations;
    } else violations = validateMessage(message);
    // Our validators judge the whole draft wire format, so the aggregate expectation is the basis.
    if (c.binding === 'registration-json' || c.aggregateExpectedValid === undefined)
      push('expectedValid', c.expectedValid, violations);
    else push('aggregateExpectedValid', c.aggregateExpectedValid, violations);
    if (c.editContext && c.contextualExpectedValid !== undefined && message !== undefined) {
      push('contextualExpectedValid', c.contextualExpectedValid, judgeInContext(message, c.editContext));
    }
  }
  return report;
}

const verdictWord = (valid: boolean) => (valid ? 'valid' : 'invalid');

/** Prints the report; exit 1 on a mismatch in a claimed kind, a changed fixture or a stale allowlist entry. */
export function run(io: {
  argv: string[];
  stdout: (line: string) => void;
  allowlist?: readonly AllowlistEntry[];
}): number {
  const dir = io.argv[0];
  if (!dir || io.argv.length > 1) {
    io.stdout('usage: check-upstream-fixtures <fixtures-dir>   (the folder holding manifest.json)');
    return 2;
  }
  let report: CheckReport;
  try {
    report = checkUpstreamFixtures(dir);
  } catch (error) {
    io.stdout(
      `cannot read ${join(dir, 'manifest.json')}: ${(error as Error).message}; pass the fixtures folder.`,
    );
    return 2;
  }
  const allow = new Map((io.allowlist ?? ALLOWLIST).map((a) => [a.id, a.reason]));
  let failures = 0;
  const notCovered = new Map<string, { n: number; disagree: string[] }>();
  for (const v of report.verdicts) {
    const agrees = v.expected === v.judged;
    if (!CLAIMED.has(v.kind)) {
      const entry = notCovered.get(v.kind) ?? { n: 0, disagree: [] };
      entry.n += 1;
      if (!agrees) entry.disagree.push(v.id);
      notCovered.set(v.kind, entry);
      continue;
    }
    const reason = allow.get(v.id);
    if (reason !== undefined) {
      if (agrees) {
        failures += 1;
        io.stdout(`STALE ${v.id}: allowlisted but our verdict now agrees; remove the entry`);
      } else io.stdout(`ALLOWED ${v.id} [${v.kind}] expected ${verdictWord(v.expected)}: ${reason}`);
      continue;
    }
    if (agrees) continue;
    failures += 1;
    const first = v.violations[0];
    const why = first ? `: ${first.requirement} ${first.path} ${first.message}` : '';
    io.stdout(
      `MISMATCH ${v.id} [${v.kind}] ${v.basis} ${verdictWord(v.expected)}, judged ${verdictWord(v.judged)}${why}`,
    );
  }
  for (const id of report.hashMismatches) {
    failures += 1;
    io.stdout(`CHANGED ${id}: the file's SHA-256 differs from the manifest`);
  }
  const claimed = report.verdicts.filter((v) => CLAIMED.has(v.kind));
  const agreeing = claimed.filter((v) => v.expected === v.judged).length;
  io.stdout(`claimed kinds: ${[...CLAIMED].join(', ')}`);
  io.stdout(`checked ${claimed.length} verdicts in claimed kinds: ${agreeing} agree, ${failures} problem(s)`);
  for (const [kind, e] of notCovered) {
    const note = e.disagree.length > 0 ? `; would disagree on ${e.disagree.join(', ')}` : '; all agree';
    io.stdout(`not covered: ${kind} (${e.n} verdicts, informational${note})`);
  }
  if (report.missing.length > 0) io.stdout(`missing locally (not judged): ${report.missing.join(', ')}`);
  return failures > 0 ? 1 : 0;
}

/** True when this module is the program being run (not imported by a test). */
if (isMainModule(import.meta.url)) {
  process.exitCode = run({ argv: process.argv.slice(2), stdout: (line) => console.log(line) });
}
