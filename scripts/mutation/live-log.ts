/**
 * A Stryker reporter that writes each mutant's verdict as it comes, one JSON line each, to
 * reports/mutation/<target>.mutants.jsonl: a run of an hour shows what it found so far, and an
 * interrupted run keeps what it judged (`--summarize-only` summarizes it, marked partial).
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import type { MutantResult } from '@stryker-mutator/api/core';
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';
import type { MutationTestingPlanReadyEvent, Reporter } from '@stryker-mutator/api/report';
import { TARGET_ENV } from './targets.js';

export function liveLogPath(target: string): string {
  return `reports/mutation/${target}.mutants.jsonl`;
}

export class LiveLog implements Reporter {
  static inject = [] as const;
  private readonly path = liveLogPath(process.env[TARGET_ENV] ?? 'harness');

  constructor() {
    mkdirSync(dirname(this.path), { recursive: true });
    writeFileSync(this.path, '');
  }

  /** The first line: how many mutants the run will judge, so a cut-off log says what it lacks. */
  onMutationTestingPlanReady(event: MutationTestingPlanReadyEvent): void {
    appendFileSync(this.path, `${JSON.stringify({ planned: event.mutantPlans.length })}\n`);
  }

  onMutantTested(result: Readonly<MutantResult>): void {
    const line = {
      file: relative(process.cwd(), result.fileName),
      line: result.location.start.line,
      column: result.location.start.column,
      endLine: result.location.end.line,
      endColumn: result.location.end.column,
      mutator: result.mutatorName,
      replacement: result.replacement,
      status: result.status,
      ...(result.killedBy === undefined ? {} : { killedBy: result.killedBy }),
      ...(result.statusReason === undefined ? {} : { reason: result.statusReason }),
    };
    appendFileSync(this.path, `${JSON.stringify(line)}\n`);
  }
}

export const liveLogPlugin = declareClassPlugin(PluginKind.Reporter, 'ahp-live-log', LiveLog);
