/**
 * `ahp-conformance backend`: self-certifies an AHP backend. The backend is driven through the
 * reference harness's strict transports (stdio, persistent or per_event, or HTTP); the report
 * states the claim and a verdict per requirement with the frames exchanged, secrets redacted.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { JsonValue } from '../../protocol/json.js';
import { systemClock } from '../../protocol/clock.js';
import {
  bindingOf,
  claimBindingOf,
  describeTarget,
  loadEndpoints,
  loadPreflight,
  redactJson,
  preflightBound,
  scaledBackendMargins,
  secretsOf,
  type BackendEndpoint,
  type BackendTarget,
} from '../../suites/backend/index.js';
import { printEpilogue } from '../console/epilogue.js';
import { runConsole } from '../console/run-console.js';
import { EXIT, interruptedBeforeRun, TargetError, UsageError, type CliIo } from '../io.js';
import { prepareOutputDir } from '../options/output-dir.js';
import { COMMON_FLAGS, COMMON_HELP, parseCommandLine } from '../options/resolve.js';
import type { ReporterName } from '../options/schema.js';
import { BUILTIN_RENDERERS, writeReports } from '../pipeline/write-reports.js';
import { renderJsonReport } from '../report/json-writer.js';
import { renderMarkdown } from '../report/markdown.js';
import type { Report } from '../report/report.js';
import type { CaseResult } from '../runner/case-result.js';
import { shardLabel } from '../shard/plan.js';
import type { Command } from './registry.js';
import { toolInputOf } from './tool-input.js';

const HELP = `Usage: ahp-conformance backend --stdio [--lifecycle persistent|per_event] [<tool inputs>] -- <command> [args...]
       ahp-conformance backend --url <url> [--bearer-token-env NAME] [<tool inputs>]
Tool inputs: [--allow-input <json>] [--deny-input <json>] [--modify-input <json>]

Self-certifies an AHP backend: every backend-side check is run through the reference harness's
strict transports, and the report gives a verdict per requirement with the frames exchanged.
report.json and report.md are written to --output-dir (other --reporter files besides) whenever
the backend could be exercised, a backend that answers wrongly included.
  --stdio                  spawn <command> after -- (an argv, no shell) with a minimal environment
  --lifecycle L            persistent (default: one process for many requests) or per_event
  --url URL                POST each message to URL (https, or plain http on loopback only)
  --bearer-token-env NAME  send "Authorization: Bearer <token>" with the token from NAME (redacted)
  --allow-input JSON       a tool input your policy lets through (decides []), e.g.
                           '{"command":"git status"}', or @file.json (default {"command":"ls -la"});
                           if the backend denies it, the allow-path checks are untested
  --deny-input JSON        a tool input your policy denies, e.g. '{"command":"rm -rf /"}', or
                           @file.json; without it the deny-path checks are untested
  --modify-input JSON      a tool input your policy answers with an edit or added context (modify,
                           inject), or @file.json; it is sent advertising every effect tool.before
                           takes, and each value returned is validated; without it those checks
                           are untested
  --deadline-ms N          every request must be answered within N ms (default 5000)

${COMMON_HELP}

Exit codes: 0 no MUST failed, 1 conformance failures (a backend that answered wrongly), 2 usage
error, 3 the backend could not be exercised at all (the command does not start or exits without
reading a request, the URL cannot be reached, nothing answers).`;

const FLAGS = {
  '--stdio': { key: 'stdio', kind: 'boolean' },
  '--lifecycle': { key: 'lifecycle', kind: 'value', placeholder: 'persistent|per_event' },
  '--url': { key: 'url', kind: 'value', placeholder: '<url>' },
  '--bearer-token-env': { key: 'bearerTokenEnv', kind: 'value', placeholder: 'NAME' },
  '--allow-input': { key: 'allowInput', kind: 'value', placeholder: '<json>' },
  '--deny-input': { key: 'denyInput', kind: 'value', placeholder: '<json>' },
  '--modify-input': { key: 'modifyInput', kind: 'value', placeholder: '<json>' },
  '--deadline-ms': { key: 'deadlineMs', kind: 'value', placeholder: '<n>' },
} as const;

/** The backend's own options, parsed once with every default applied. */
const backendSchema = z.strictObject({
  stdio: z.literal(true).optional(),
  lifecycle: z.enum(['persistent', 'per_event']).optional(),
  url: z.string().trim().min(1).optional(),
  bearerTokenEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
    .optional(),
  allowInput: z.string().optional(),
  denyInput: z.string().optional(),
  modifyInput: z.string().optional(),
  deadlineMs: z.preprocess(
    (v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
    z.int().min(1).max(600_000).default(5_000),
  ),
});

const MUST: Record<string, string> = {
  lifecycle: '--lifecycle must be persistent or per_event',
  bearerTokenEnv: '--bearer-token-env must name an environment variable (letters, digits, _), e.g. AHP_TOKEN',
  deadlineMs:
    '--deadline-ms must be a whole number of milliseconds from 1 to 600000, e.g. --deadline-ms 2000',
};

/** Resolves the target from the command line; every problem is a UsageError naming the input. */
export async function resolveBackendTarget(
  extra: Record<string, unknown>,
  trailing: string[] | undefined,
  io: Pick<CliIo, 'cwd' | 'env'>,
): Promise<BackendTarget> {
  const parsed = backendSchema.safeParse(extra);
  if (!parsed.success) {
    const key = String(parsed.error.issues[0]?.path[0] ?? '');
    throw new UsageError(`${MUST[key] ?? `--${key} is invalid`}.`);
  }
  const o = parsed.data;
  if (o.stdio && o.url !== undefined) throw new UsageError('--stdio and --url exclude each other; pick one.');
  if (!o.stdio && o.url === undefined) {
    throw new UsageError(
      'choose the backend: --stdio -- <command> [args...] for a process, or --url <url> for an HTTP endpoint.',
    );
  }
  const { httpEndpoint, stdioEndpoint } = await loadEndpoints();
  let endpoint: BackendEndpoint;
  if (o.stdio) {
    if (o.bearerTokenEnv !== undefined) {
      throw new UsageError('--bearer-token-env applies to --url only; a stdio backend gets no credentials.');
    }
    const [command, ...args] = trailing ?? [];
    if (command === undefined) {
      throw new UsageError(
        '--stdio needs the backend command after --, e.g. backend --stdio -- node my-backend.mjs.',
      );
    }
    endpoint = stdioEndpoint({
      command,
      args,
      lifecycle: o.lifecycle ?? 'persistent',
      cwd: io.cwd,
      env: io.env,
    });
  } else {
    if (trailing !== undefined)
      throw new UsageError('--url takes no command after --; remove "--" and what follows it.');
    if (o.lifecycle !== undefined)
      throw new UsageError('--lifecycle applies to --stdio only; drop it for --url.');
    const name = o.bearerTokenEnv;
    const token = name === undefined ? undefined : io.env[name];
    if (name !== undefined && (token === undefined || token === '')) {
      throw new UsageError(
        `the environment variable ${name} (from --bearer-token-env) is empty or not set; export the token in it.`,
      );
    }
    const built = httpEndpoint({
      url: o.url as string,
      ...(name === undefined ? {} : { bearerTokenEnv: name }),
      ...(token === undefined ? {} : { bearerToken: token }),
    });
    if (!built.ok) throw new UsageError(`--url ${built.message}`);
    endpoint = built.endpoint;
  }
  const allowInput = await toolInputOf('allow', o.allowInput, io.cwd);
  const denyInput = await toolInputOf('deny', o.denyInput, io.cwd);
  const modifyInput = await toolInputOf('modify', o.modifyInput, io.cwd);
  return {
    endpoint,
    deadlineMs: o.deadlineMs,
    ...(allowInput === undefined ? {} : { allowInput }),
    ...(denyInput === undefined ? {} : { denyInput }),
    ...(modifyInput === undefined ? {} : { modifyInput }),
  };
}

/** The reporters of a backend run: the self-certification report is always written. */
export function backendReporters(requested: readonly ReporterName[]): ReporterName[] {
  return [...new Set<ReporterName>([...requested, 'json', 'markdown'])];
}

/** The `backend` command. */
export const backendCommand: Command = {
  name: 'backend',
  help: HELP,
  flags: [...Object.keys(COMMON_FLAGS), ...Object.keys(FLAGS)],
  async run(args, io: CliIo) {
    const line = await parseCommandLine(
      args,
      {
        flags: FLAGS,
        trailing: {
          name: 'backend command',
          example: 'backend --stdio -- node my-backend.mjs',
          whenAbsent: 'use --url <url> for an HTTP backend',
        },
      },
      { cwd: io.cwd },
    );
    const target = await resolveBackendTarget(line.extra, line.trailing, io);
    // Loaded on use: vitest's Node API and the transports (execa) are heavy; --help needs neither.
    const [{ preflightBackend, commandLine }, pipeline] = await Promise.all([
      loadPreflight(),
      import('../pipeline/suite-run.js'),
    ]);
    const options = { ...line.options, reporters: backendReporters(line.options.reporters) };
    await prepareOutputDir(options.outputDir, options.outputDir);
    const secrets = secretsOf(target);
    const margins = scaledBackendMargins(options.timeoutScale);
    const { boundMs, boundSource } = preflightBound(target.endpoint, target.deadlineMs, options.timeoutScale);
    // A file report never silences the console: only --quiet does.
    const shardOf = options.shard ? `, shard ${shardLabel(options.shard)}` : '';
    const out = runConsole(io.stdout, {
      quiet: options.quiet,
      heading: `backend self-certification over ${bindingOf(target.endpoint)}${shardOf}`,
    });
    const { endpoint } = target;
    // A URL's path and host only: credentials in it stay out of the log.
    const where =
      endpoint.kind === 'http'
        ? `${new URL(endpoint.url).origin}${new URL(endpoint.url).pathname}`
        : commandLine(endpoint);
    out.phase(`Checking that the backend answers: one tool.before to ${where}`);
    const pre = await preflightBackend(target, {
      clock: systemClock,
      boundMs,
      boundSource,
      killGraceMs: margins.killGraceMs,
      startupWatchMs: margins.spawnMs,
    });
    if (!pre.ok || io.signal.aborted) out.finish();
    if (!pre.ok) throw new TargetError(pre.message);
    if (io.signal.aborted) return interruptedBeforeRun(io);
    const redact = (result: CaseResult): CaseResult =>
      redactJson(result as unknown as JsonValue, secrets) as unknown as CaseResult;
    const { report, exitCode } = await pipeline
      .runSuite({
        role: 'backend',
        include: ['suites/backend/**/*.conformance.ts'],
        provide: { ahpBackendTarget: target, ahpSettings: pipeline.suiteSettings(options) },
        options,
        signal: io.signal,
        target: describeTarget(target),
        claim: {
          role: 'backend',
          bindings: [claimBindingOf(target.endpoint)],
          profiles: ['base', 'tool-interception', claimBindingOf(target.endpoint)],
        },
        version: await packageVersion(),
        // One file of independent probes: its cases move between shards one by one.
        shardUnit: 'case',
        ...out.hooks(redact),
      })
      .finally(() => out.finish());
    const safe = redactJson(report as unknown as JsonValue, secrets) as unknown as Report;
    const files = await writeReports(safe, options, {
      ...BUILTIN_RENDERERS,
      json: (r) => renderJsonReport(r, secrets),
      markdown: renderMarkdown,
    });
    const interrupted = printEpilogue(io, safe, {
      command: 'backend',
      args,
      files,
      quiet: options.quiet,
      strict: options.strict,
      failed: exitCode !== 0,
      options,
      cwd: io.cwd,
    });
    if (interrupted !== undefined) return interrupted;
    return exitCode === 0 ? EXIT.ok : EXIT.conformanceFailure;
  },
};

async function packageVersion(): Promise<string> {
  const text = await readFile(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}
