import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bounded, FileSystemStepTimedOut } from '../file-system-bound.js';
import { UsageError } from '../io.js';
import { renderHtml } from '../report/html.js';
import { renderJunit } from '../report/junit.js';
import type { Report } from '../report/report.js';
import { REPORTER_FILES, type ReporterName } from '../options/schema.js';
import type { ResolvedOptions } from '../options/resolve.js';

/** Renders a report as one file's text. */
export type FileRenderer = (report: Report, options: { strict: boolean; fullReport?: string }) => string;

/** The file reporters; the console reporter prints while the run goes and writes no file. */
export type FileReporterName = Exclude<ReporterName, 'console'>;

/** The JSON report (`cli/report/report.schema.json`), pretty-printed. */
export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** Renderers of the reporters this folder owns; markdown joins them from its own module. */
export const BUILTIN_RENDERERS: Partial<Record<FileReporterName, FileRenderer>> = {
  json: renderJson,
  junit: renderJunit,
  html: renderHtml,
};

/**
 * Writes one file per requested file reporter into the output directory (already created and
 * checked writable by the options parse) and returns the paths written, in reporter order.
 */
export async function writeReports(
  report: Report,
  options: Pick<ResolvedOptions, 'reporters' | 'outputDir' | 'strict'>,
  renderers: Partial<Record<FileReporterName, FileRenderer>> = BUILTIN_RENDERERS,
): Promise<string[]> {
  const written: string[] = [];
  // The Markdown report is bounded: when it is cut, it names the file that holds everything.
  const whole = (['html', 'json'] as const).find((r) => options.reporters.includes(r));
  const fullReport =
    whole === undefined ? {} : { fullReport: join(options.outputDir, REPORTER_FILES[whole]) };
  for (const name of options.reporters) {
    if (name === 'console') continue;
    const render = renderers[name];
    if (!render) throw new Error(`no renderer for the ${name} reporter`);
    const path = join(options.outputDir, REPORTER_FILES[name]);
    await bounded(writeFile(path, render(report, { strict: options.strict, ...fullReport }))).catch(
      (error: unknown) => {
        if (!(error instanceof FileSystemStepTimedOut)) throw error;
        throw new UsageError(
          `writing the report "${path}" got no answer within ${error.ms / 1000} s; pass a directory on a local, writable disk with --output-dir.`,
        );
      },
    );
    written.push(path);
  }
  return written;
}
