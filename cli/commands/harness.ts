/**
 * `ahp-conformance harness [-- <driver command> [args...]]`: runs the harness suite against a
 * harness through its driver (harness driver protocol v1); with no command, against the bundled
 * reference harness. The driver is started once first: if it cannot start or initialize, the run
 * stops with exit 3 and one sentence; its `initialize` also gives the report's claim.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { JsonValue } from '../../protocol/json.js';
import {
  DriverProtocolError,
  DriverUnavailableError,
  startDriver,
  type InitializeResult,
} from '../../suites/driver/index.js';
import { claimFor, SUITE_VERSION, type HarnessTarget } from '../../suites/harness/index.js';
import { redactJson } from '../../suites/backend/index.js';
import { stderrTail } from '../../suites/common/index.js';
import { ensureBundles } from '../bundles.js';
import { runConsole } from '../console/run-console.js';
import { printEpilogue } from '../console/epilogue.js';
import { EXIT, interruptedBeforeRun, stderrTailLines, TargetError, writeLine, type CliIo } from '../io.js';
import { COMMON_FLAGS, COMMON_HELP, parseCommandLine, type ResolvedOptions } from '../options/resolve.js';
import { runSuite, suiteSettings, type SuiteRunOutcome, type SuiteRunPlan } from '../pipeline/suite-run.js';
import {
  BUILTIN_RENDERERS,
  writeReports,
  type FileRenderer,
  type FileReporterName,
} from '../pipeline/write-reports.js';
import { renderJsonReport } from '../report/json-writer.js';
import { renderMarkdown } from '../report/markdown.js';
import type { Report } from '../report/report.js';
import { PACKAGE_ROOT, runConformance } from '../runner/run-conformance.js';
import { SUITE_GLOBS } from '../selection/collect.js';
import { recordedDurations } from '../shard/durations.js';
import { shardLabel } from '../shard/plan.js';
import { INTEROP_FLAG, INTEROP_HELP, resolveInterop } from '../options/interop-option.js';
import { INTEROP_PATH_KEY, INTEROP_SUITE_GLOB } from '../../suites/interop/index.js';
import { missingDriverScript } from './driver-script.js';
import type { Command } from './registry.js';

const HELP = `Usage: ahp-conformance harness [options] [-- <driver command> [args...]]

Runs the harness conformance suite: every harness-side AHP requirement, checked against a
programmable misbehaving mock backend, through a driver that wraps the harness under test
(docs/driver-protocol.md). With no command, the bundled reference harness is the target.

Examples:
  ahp-conformance harness
  ahp-conformance harness --reporter json --output-dir reports -- node my-driver.mjs
  ahp-conformance harness --interop ../agent-hooks-protocol/interop -- node my-driver.mjs

${COMMON_HELP}
${INTEROP_HELP}

Exit codes: 0 no MUST failed, 1 conformance failures, 2 usage or configuration error,
3 the driver could not be started or initialized, or exited or stopped answering during the run
(the report of the cases judged before is still written).`;

/** The bundled reference harness's driver: what `harness` runs with no command. */
export function referenceDriverCommand(): string[] {
  return [process.execPath, join(PACKAGE_ROOT, 'bin', 'ahp-reference-driver.mjs')];
}

const SECRET_NAME = /(token|secret|password|passwd|api[-_]?key|credential|auth)/i;

/**
 * The driver command as the report shows it: values of secret-looking flags (`--token x`,
 * `--api-key=x`, `TOKEN=x`), bearer values and URL credentials replaced by `<redacted>`.
 */
export function redactCommand(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf('=');
    if (eq > 0 && SECRET_NAME.test(arg.slice(0, eq))) {
      out.push(`${arg.slice(0, eq)}=<redacted>`);
      continue;
    }
    if (arg.startsWith('-') && SECRET_NAME.test(arg) && i + 1 < argv.length) {
      out.push(arg, '<redacted>');
      i++;
      continue;
    }
    out.push(
      arg.replace(/\b(Bearer)\s+\S+/gi, '$1 <redacted>').replace(/(\w+:\/\/)[^/@\s]+@/g, '$1<redacted>@'),
    );
  }
  return out;
}

/**
 * Starts the driver once, initializes it, and shuts it down (stdin closed, then SIGTERM; no
 * harness was configured, so there is nothing to `close`): the claim, or exit 3 in one sentence
 * with the driver's stderr tail.
 */
export async function preflightDriver(
  command: readonly string[],
  io: Pick<CliIo, 'env' | 'cwd'>,
  options: Pick<ResolvedOptions, 'timeoutScale' | 'protocolVersion'>,
): Promise<InitializeResult> {
  const missing = missingDriverScript(command, io.cwd);
  if (missing !== undefined) throw new TargetError(missing);
  try {
    const { client, info } = await startDriver(
      command,
      { protocolVersion: options.protocolVersion, suiteVersion: SUITE_VERSION },
      { timeoutScale: options.timeoutScale, env: { ...io.env }, cwd: io.cwd },
    );
    await client.dispose();
    return info;
  } catch (error) {
    if (error instanceof DriverUnavailableError) {
      const tail = stderrTail(error.stderr);
      throw new TargetError(error.message, tail.length > 0 ? stderrTailLines(tail) : []);
    }
    if (error instanceof DriverProtocolError) throw new TargetError(error.message);
    throw error;
  }
}

/**
 * Suite files run in parallel. Most of a case's time is spent waiting (deadlines, backend
 * processes booting), not computing, so more files than cores keep a 2-core machine busy; each
 * file holds one driver and its mocks.
 */
export const HARNESS_MAX_WORKERS = 4;

/** The report renderers: the JSON report redacts the run's bearer token wherever it appears. */
function renderers(secrets: readonly string[]): Partial<Record<FileReporterName, FileRenderer>> {
  return {
    ...BUILTIN_RENDERERS,
    json: (report) => renderJsonReport(report, secrets),
    markdown: (report, o) => renderMarkdown(report, o),
  };
}

/** What a harness run hands the pipeline, given the preflight's answer. */
export function harnessPlan(
  command: readonly string[],
  info: InitializeResult,
  io: Pick<CliIo, 'env' | 'cwd'>,
  options: ResolvedOptions,
  token: string,
  interopPath?: string,
): SuiteRunPlan {
  const label = redactCommand(command).join(' ');
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(io.env)) if (v !== undefined) env[k] = v;
  const target: HarnessTarget = { kind: 'driver', command: [...command], label, env, cwd: io.cwd, token };
  const reported: JsonValue = {
    kind: 'driver',
    command: redactCommand(command),
    implementation: info.implementation,
    protocolVersions: info.protocolVersions,
    bindings: info.bindings,
    features: info.features as JsonValue,
  };
  return {
    role: 'harness',
    include: [interopPath === undefined ? SUITE_GLOBS.harness : INTEROP_SUITE_GLOB],
    provide: {
      ahpHarnessTarget: target,
      ahpSettings: suiteSettings(options),
      ...(interopPath === undefined ? {} : { [INTEROP_PATH_KEY]: interopPath }),
    },
    options,
    target: reported,
    claim: claimFor(info),
    version: SUITE_VERSION,
    shardUnit: 'file',
    runner: (o) => runConformance({ ...o, maxWorkers: HARNESS_MAX_WORKERS }),
  };
}

async function runHarness(args: readonly string[], io: CliIo): Promise<number> {
  const { options, trailing, extra } = await parseCommandLine(
    args,
    {
      flags: INTEROP_FLAG,
      trailing: {
        name: 'driver command',
        example: '-- node my-driver.mjs',
        whenAbsent: 'leave "--" out to test the bundled reference harness',
      },
    },
    { cwd: io.cwd },
  );
  const interop = await resolveInterop(extra.interop, io.cwd);
  const command = trailing ?? referenceDriverCommand();
  const label = redactCommand(command).join(' ');
  const weights = await recordedDurations('harness');
  const selecting =
    options.only.length > 0 ||
    options.skip.length > 0 ||
    options.shard !== undefined ||
    interop !== undefined;
  // A file report never silences the console: only --quiet does.
  const out = runConsole(io.stdout, {
    quiet: options.quiet,
    heading: options.shard
      ? `Running shard ${shardLabel(options.shard)} of the harness suite`
      : interop
        ? `Running the interop scenarios of ${interop.sets.map((s) => s.file).join(', ')}`
        : 'Running the harness suite',
    transcriptAt: transcriptAt(options),
    weights,
    ...(selecting ? {} : { expectedCases: weights.size }),
  });
  out.say(`ahp-conformance harness: target ${trailing ? label : 'the bundled reference harness'}`);
  out.say(`Seed ${options.seed} (replay with --seed ${options.seed}).`);
  await ensureBundles({
    onBuild: (outs) => out.phase(`Building ${outs.join(', ')} in dist/ (after an update)`),
  });
  out.phase(`Starting the driver: ${trailing ? label : 'the reference driver'}`);
  const info = await preflightDriver(command, io, options).catch((error: unknown) => {
    out.finish();
    throw error;
  });
  if (io.signal.aborted) {
    out.finish();
    return interruptedBeforeRun(io);
  }
  out.say(
    `Driver: ${info.implementation.name} ${info.implementation.version}; bindings ${info.bindings.join(', ') || 'none'}.`,
  );
  const token = randomBytes(18).toString('base64url');
  const plan = harnessPlan(command, info, io, options, token, interop?.path);
  const outcome: SuiteRunOutcome = await runSuite({ ...plan, signal: io.signal, ...out.hooks() }).finally(
    () => out.finish(),
  );
  // Should the suite's bearer token ever reach evidence, every reporter gets it redacted, not only JSON.
  const safe = redactJson(outcome.report as unknown as JsonValue, [token]) as unknown as Report;
  const files = await writeReports(safe, options, renderers([token]));
  const stopped = safe.stopped;
  const interrupted = printEpilogue(io, safe, {
    command: 'harness',
    args,
    files,
    quiet: options.quiet,
    strict: options.strict,
    failed: outcome.exitCode !== 0,
    options,
    cwd: io.cwd,
  });
  if (interrupted !== undefined) return interrupted;
  if (stopped) {
    writeLine(io.stderr, `ahp-conformance harness: ${stopped.message}`);
    for (const line of stderrTailLines(stopped.stderrTail)) writeLine(io.stderr, line);
    return EXIT.targetUnreachable;
  }
  return outcome.exitCode === 0 ? EXIT.ok : EXIT.conformanceFailure;
}

/** Where a failing case's full wire transcript will be: the JSON or HTML report, if one is written. */
function transcriptAt(options: ResolvedOptions): string {
  const file = options.reporters.includes('json')
    ? 'report.json'
    : options.reporters.includes('html')
      ? 'report.html'
      : undefined;
  return file === undefined ? 'the JSON report (add --reporter json)' : join(options.outputDir, file);
}

/** The `harness` subcommand. */
export const harnessCommand: Command = {
  name: 'harness',
  help: HELP,
  flags: [...Object.keys(COMMON_FLAGS), ...Object.keys(INTEROP_FLAG)],
  run: runHarness,
};
