import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingDriverScript, nodeScriptOf } from './driver-script.js';

describe('the script of a node driver command', () => {
  it('is the first argument that is not a node flag or its value', () => {
    expect(nodeScriptOf(['node', 'driver.mjs', '--verbose'])).toBe('driver.mjs');
    expect(nodeScriptOf([process.execPath, '--import', 'tsx', './d.ts'])).toBe('./d.ts');
    expect(nodeScriptOf(['/usr/bin/node', '--enable-source-maps', 'd.mjs'])).toBe('d.mjs');
    expect(nodeScriptOf(['node', '-e', 'console.log(1)'])).toBeUndefined();
    expect(nodeScriptOf(['npx', 'ahp-broken-twin', 'claim-missing'])).toBeUndefined();
    expect(nodeScriptOf(['./my-driver'])).toBeUndefined();
  });

  it('is named in one sentence when it does not exist, resolved from the working directory', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ahp-driver-script-'));
    writeFileSync(join(cwd, 'here.mjs'), '');
    expect(missingDriverScript(['node', 'here.mjs'], cwd)).toBeUndefined();
    expect(missingDriverScript(['node', 'node_modules/x/run.mjs', 'twin'], cwd)).toBe(
      `the driver script "node_modules/x/run.mjs" does not exist (looked for ${join(cwd, 'node_modules/x/run.mjs')}); fix the path after "--" (relative paths start at the directory you run ahp-conformance in).`,
    );
  });
});
