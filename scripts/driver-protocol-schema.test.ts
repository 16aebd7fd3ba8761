// docs/driver-protocol.schema.json is what scripts/driver-protocol-schema.ts generates from the zod
// schema, and a JSON Schema validator reads it as draft 2020-12 with no keyword it does not know.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  METHODS,
  REGENERATE,
  SCHEMA_FILE,
  defName,
  driverProtocolSchema,
  driverProtocolSchemaText,
} from './driver-protocol-schema.js';
import { ROOT } from './lib/doc-sandbox.js';

describe('docs/driver-protocol.schema.json', () => {
  it('is the one the zod schema generates', async () => {
    const checkedIn = readFileSync(join(ROOT, SCHEMA_FILE), 'utf8');
    expect(
      checkedIn === (await driverProtocolSchemaText()),
      `${SCHEMA_FILE} is out of date: run ${REGENERATE}`,
    ).toBe(true);
  });

  it('compiles under a strict draft 2020-12 validator, with params and result for every method', () => {
    const ajv = new Ajv2020({ strict: true });
    const schema = driverProtocolSchema();
    ajv.addSchema(schema);
    for (const method of METHODS)
      for (const part of ['Params', 'Result'] as const)
        expect(
          ajv.getSchema(`${String(schema['$id'])}#/$defs/${defName(method, part)}`),
          `${method}${part}`,
        ).toBeTypeOf('function');
  });

  it('keeps what the zod refinements ask: a non-negative integer, a non-empty string, a refusal with issues', () => {
    const ajv = new Ajv2020({ strict: true });
    const schema = driverProtocolSchema();
    ajv.addSchema(schema);
    const at = (name: string) => (value: unknown) =>
      ajv.getSchema(`${String(schema['$id'])}#/$defs/${name}`)?.(value);
    const audit = { backendId: 'b', outcome: 'no-effect' };
    const invoke = { decision: 'continue', synthetic: false, interrupted: false };
    expect(at('invokeResult')({ ...invoke, audit: [audit] })).toBe(true);
    expect(at('invokeResult')({ ...invoke, audit: [{ ...audit, attempts: 1.5 }] })).toBe(false);
    expect(at('invokeResult')({ ...invoke, audit: [{ ...audit, attempts: -1 }] })).toBe(false);
    expect(at('invokeResult')({ ...invoke, audit: [{ ...audit, backendId: '' }] })).toBe(false);
    expect(at('configureResult')({ accepted: true })).toBe(true);
    expect(at('configureResult')({ accepted: false })).toBe(false);
    expect(at('configureResult')({ accepted: false, issues: [] })).toBe(false);
    expect(at('configureResult')({ accepted: false, issues: [{ path: '', message: 'no' }] })).toBe(true);
    expect(at('invokeParams')({ event: { type: 'no.such.event' } })).toBe(false);
  });

  it('is where the docs send authors in other languages', () => {
    for (const page of ['driver-protocol.md', 'harness-authors.md'])
      expect(readFileSync(join(ROOT, 'docs', page), 'utf8'), page).toContain(
        '](driver-protocol.schema.json)',
      );
  });
});
