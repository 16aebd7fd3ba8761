// Every JSON-RPC line in docs/driver-protocol.md, requests and results, parses against the schema,
// and validates against its JSON Schema form (docs/driver-protocol.schema.json, what authors in
// other languages validate with): the document and both schemas describe one protocol.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { checkShape, paramsSchemas, type ShapeCheck } from './index.js';
import {
  closeResultSchema,
  configureResultSchema,
  initializeResultSchema,
  invokeResultSchema,
} from './results.js';

const DOC = readFileSync(new URL('../../docs/driver-protocol.md', import.meta.url), 'utf8');
const JSON_SCHEMA = JSON.parse(
  readFileSync(new URL('../../docs/driver-protocol.schema.json', import.meta.url), 'utf8'),
) as { $id: string };

const RESULTS = {
  initialize: initializeResultSchema,
  configure: configureResultSchema,
  invoke: invokeResultSchema,
  close: closeResultSchema,
} as const;
type Method = keyof typeof RESULTS;

interface Line {
  id?: number;
  method?: Method;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

/** The transcript lines of the document's code blocks (`>` from the suite, `<` from the driver). */
function transcriptLines(doc: string): Array<{ from: 'suite' | 'driver'; message: Line }> {
  return [...doc.matchAll(/^([<>]) (\{.*\})$/gm)].map((m) => ({
    from: m[1] === '>' ? 'suite' : 'driver',
    message: JSON.parse(m[2] as string) as Line,
  }));
}

/** Each message checked against its method's schema; replies are tied to requests by id. */
function checks(doc: string): Array<{ what: string; check: ShapeCheck<unknown> }> {
  const methodOf = new Map<number, Method>();
  const out: Array<{ what: string; check: ShapeCheck<unknown> }> = [];
  for (const { from, message } of transcriptLines(doc)) {
    if (from === 'suite') {
      const method = message.method as Method;
      methodOf.set(message.id as number, method);
      out.push({
        what: `${method} params (id ${message.id})`,
        check: checkShape(paramsSchemas[method], message.params, 'params'),
      });
    } else if (message.result !== undefined) {
      const method = methodOf.get(message.id as number) as Method;
      out.push({
        what: `${method} result (id ${message.id})`,
        check: checkShape(RESULTS[method], message.result, '$.result'),
      });
    }
  }
  return out;
}

describe('the examples of docs/driver-protocol.md', () => {
  const found = checks(DOC);

  it('cover every method, requests and results', () => {
    const covered = new Set(found.map((f) => f.what.replace(/ \(id \d+\)$/, '')));
    for (const method of Object.keys(RESULTS)) {
      expect(covered).toContain(`${method} params`);
      expect(covered).toContain(`${method} result`);
    }
  });

  it('show every v1.3 member: invoke params with capabilities, results with each outcome member', () => {
    const lines = transcriptLines(DOC).map((l) => l.message);
    const params = lines.filter((l) => l.method === 'invoke').map((l) => l.params as object);
    expect(params.some((p) => 'capabilities' in p)).toBe(true);
    const results = lines.filter((l) => l.result !== undefined).map((l) => l.result as object);
    const v13 = [
      'messages',
      'input',
      'result',
      'flow',
      'continuationInstructions',
      'continuationRemaining',
      'injections',
    ];
    for (const member of v13)
      expect(
        results.some((r) => member in r),
        member,
      ).toBe(true);
  });

  it('each parse against the schema', () => {
    const failing = found.filter((f) => !f.check.ok).map((f) => ({ what: f.what, check: f.check }));
    expect(failing).toEqual([]);
  });

  it('a broken example does not: the result and the request name the field', () => {
    const broken = DOC.replace('"outcome":"no-effect"', '"outcome":"nothing"').replace(
      '"suiteVersion":"0.1.0"',
      '"suiteVersion":1',
    );
    const failing = checks(broken).filter((f) => !f.check.ok);
    expect(failing.map((f) => [f.what, f.check.ok ? [] : f.check.problems.map((p) => p.field)])).toEqual([
      ['initialize params (id 1)', ['params.suiteVersion']],
      ['invoke result (id 3)', ['$.result.audit[0].outcome']],
    ]);
  });
});

/** Each example against the checked-in JSON Schema: a request line whole, a result by its method. */
function jsonSchemaFailures(doc: string): string[] {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  ajv.addSchema(JSON_SCHEMA);
  const methodOf = new Map<number, Method>();
  const failures: string[] = [];
  const check = (ref: string, value: unknown, what: string): void => {
    const validate = ajv.getSchema(`${JSON_SCHEMA.$id}${ref}`);
    if (validate === undefined) throw new Error(`docs/driver-protocol.schema.json has no ${ref}`);
    if (!validate(value))
      failures.push(
        `${what}: ${(validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`).join('; ')}`,
      );
  };
  for (const { from, message } of transcriptLines(doc)) {
    if (from === 'suite') {
      methodOf.set(message.id as number, message.method as Method);
      check('', message, `${message.method} request (id ${message.id})`);
    } else if (message.result !== undefined) {
      const method = methodOf.get(message.id as number) as Method;
      check(`#/$defs/${method}Result`, message.result, `${method} result (id ${message.id})`);
    }
  }
  return failures;
}

describe('the examples of docs/driver-protocol.md against docs/driver-protocol.schema.json', () => {
  it('each validate', () => {
    expect(jsonSchemaFailures(DOC)).toEqual([]);
  });

  it('a broken example does not, naming the field', () => {
    const broken = DOC.replace('"outcome":"no-effect"', '"outcome":"nothing"').replace(
      '"suiteVersion":"0.1.0"',
      '"suiteVersion":1',
    );
    const failures = jsonSchemaFailures(broken);
    expect(
      failures.some((f) => f.startsWith('initialize request (id 1)') && f.includes('/params/suiteVersion')),
    ).toBe(true);
    expect(failures.some((f) => f.startsWith('invoke result (id 3)') && f.includes('/audit/0/outcome'))).toBe(
      true,
    );
  });
});
