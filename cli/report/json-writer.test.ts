import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseJsonReport, renderJsonReport } from './json-writer.js';
import { buildReport } from './report.js';
import { checkSchema } from './test-support/json-schema.js';
import { sampleReport } from './test-support/sample-report.js';

const schema = JSON.parse(readFileSync(new URL('./report.schema.json', import.meta.url), 'utf8')) as Record<
  string,
  unknown
>;

const TOKEN = 'tok-3f9a1c';

function backendReport() {
  return buildReport({
    version: '0.1.0',
    role: 'backend',
    target: { binding: 'http', url: 'http://127.0.0.1:9/', bearerTokenEnv: 'AHP_TOKEN' },
    claim: { role: 'backend', bindings: ['http'], profiles: ['base', 'tool-interception', 'http'] },
    seed: 0,
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 12,
    runErrors: [],
    cases: [
      {
        name: 'AHP-RPC-001/transport:http/reply',
        file: 'suites/backend/backend.conformance.ts',
        requirements: ['AHP-RPC-001'],
        level: 'MUST',
        transports: ['http'],
        profiles: ['base'],
        status: 'fail',
        durationMs: 3,
        errors: [`step 1: the backend echoed Bearer ${TOKEN}`],
        evidence: { transcript: [{ step: 1, atMs: 0.5, dir: 'in', text: `{"echo":"${TOKEN}"}` }] },
      },
    ],
  });
}

describe('JSON report writer', () => {
  it('writes a report that parses back unchanged and meets report.schema.json, for either role', () => {
    for (const report of [sampleReport(), backendReport()]) {
      const text = renderJsonReport(report);
      expect(text.endsWith('}\n')).toBe(true);
      expect(parseJsonReport(text)).toEqual(JSON.parse(JSON.stringify(report)));
      expect(checkSchema(parseJsonReport(text), schema)).toEqual([]);
    }
  });

  it('redacts every secret, in errors and evidence alike', () => {
    const text = renderJsonReport(backendReport(), [TOKEN]);
    expect(text).not.toContain(TOKEN);
    // In the error, the transcript, and the problem the failure is grouped under.
    expect(text.match(/\[redacted\]/g)).toHaveLength(3);
    expect(checkSchema(parseJsonReport(text), schema)).toEqual([]);
  });
});
