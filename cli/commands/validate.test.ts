import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleInterceptRequest } from '../../protocol/test-samples.js';
import { run } from '../run.js';
import { fakeIo } from '../test-support/fake-io.js';

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ahp-validate-'));
  writeFileSync(join(dir, 'request.json'), JSON.stringify(sampleInterceptRequest()));
  const noPolicy = {
    protocolVersion: 'draft',
    hooks: [
      {
        id: 'com.example.x',
        transport: { type: 'stdio', command: 'x', lifecycle: 'persistent' },
        subscriptions: [
          { events: ['tool.before'], mode: 'intercept', timeoutMs: 500, content: { default: 'omit' } },
        ],
      },
    ],
  };
  writeFileSync(join(dir, 'no-policy.json'), JSON.stringify(noPolicy, null, 2));
  writeFileSync(join(dir, 'mixed.jsonl'), `${JSON.stringify(sampleInterceptRequest())}\nnot json\n`);
  return dir;
}

async function validate(args: string[], cwd: string) {
  const f = fakeIo(['validate', ...args], { cwd });
  const code = await run(f.io);
  return { code, out: f.out(), err: f.err() };
}

describe('validate command', () => {
  it('exits 0 when every file is valid and names the detected kind', async () => {
    const r = await validate(['request.json'], workspace());
    expect(r.code).toBe(0);
    expect(r.out).toContain('request.json: valid intercept request');
    expect(r.out).toContain('1 file checked: 1 valid, 0 invalid.');
  });

  it('exits 1 on an invalid file, printing each violation with its JSON path and requirement ID', async () => {
    const r = await validate(['request.json', 'no-policy.json', 'mixed.jsonl'], workspace());
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /no-policy\.json: INVALID registration document\n {2}\$\.hooks\[0\]\.subscriptions\[0\]\.failurePolicy: .+ \[AHP-[A-Z]+-\d{3}\]/,
    );
    expect(r.out).toMatch(
      /mixed\.jsonl: INVALID 2 NDJSON lines \(intercept request, NDJSON frame\)\n {2}line 2 \$: framing: the line is not JSON \[AHP-STDIO-001\]/,
    );
    expect(r.out).toContain('3 files checked: 1 valid, 2 invalid.');
  });

  it('prints only invalid files with --quiet', async () => {
    const r = await validate(['--quiet', 'request.json', 'no-policy.json'], workspace());
    expect(r.out).not.toContain('request.json: valid');
    expect(r.out).toContain('no-policy.json: INVALID');
  });

  it('exits 2 for an unreadable file, still checking the others', async () => {
    const r = await validate(['missing.json', 'request.json'], workspace());
    expect(r.code).toBe(2);
    expect(r.err.trim()).toBe(
      'ahp-conformance validate: cannot read "missing.json" (ENOENT); check the path.',
    );
    expect(r.out).toContain('request.json: valid');
  });

  it('exits 2 without files', async () => {
    const r = await validate([], workspace());
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/give at least 1 file to validate/);
  });
});
