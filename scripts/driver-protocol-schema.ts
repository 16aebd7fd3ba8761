// Writes docs/driver-protocol.schema.json: the driver protocol's zod schema
// (protocol/driver-protocol/) as JSON Schema draft 2020-12, for driver authors in any language.
// Usage: npm run schema:driver-protocol (a test fails when the checked-in file is out of date).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { z } from 'zod';
import { paramsSchemas } from '../protocol/driver-protocol/index.js';
import {
  closeResultSchema,
  configureResultSchema,
  initializeResultSchema,
  invokeResultSchema,
} from '../protocol/driver-protocol/results.js';
import { ROOT } from './lib/doc-sandbox.js';
import { exitWith, isMainModule } from './lib/script-main.js';

/** Where the generated schema is checked in, from the repository root. */
export const SCHEMA_FILE = join('docs', 'driver-protocol.schema.json');

/** The command that rewrites the file. */
export const REGENERATE = 'npm run schema:driver-protocol';

const RESULTS = {
  initialize: initializeResultSchema,
  configure: configureResultSchema,
  invoke: invokeResultSchema,
  close: closeResultSchema,
} as const;

/** Every method, in the order a run calls them. */
export const METHODS = Object.keys(RESULTS) as Array<keyof typeof RESULTS>;

/** The name of a method's params or result in `$defs`: `invokeParams`, `invokeResult`. */
export const defName = (method: string, part: 'Params' | 'Result'): string => `${method}${part}`;

/** One zod schema as a JSON Schema fragment: what a value may be on the way in, without `$schema`. */
function fragment(schema: z.ZodType): Record<string, unknown> {
  // Members the JSON Schema cannot state (a custom JSON value) accept any value, as the zod
  // schema does for every value a parsed JSON line can hold.
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return rest;
}

/** A line the suite writes: a JSON-RPC request whose params are its method's. */
function requestLine(method: string): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      jsonrpc: { const: '2.0' },
      id: { type: 'integer' },
      method: { const: method },
      params: { $ref: `#/$defs/${defName(method, 'Params')}` },
    },
    // `close` may come without params; every other method has them.
    required: ['jsonrpc', 'id', 'method', ...(method === 'close' ? [] : ['params'])],
  };
}

/** The whole schema document. */
export function driverProtocolSchema(): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  for (const method of METHODS) {
    defs[defName(method, 'Params')] = fragment(paramsSchemas[method]);
    defs[defName(method, 'Result')] = fragment(RESULTS[method]);
  }
  defs['request'] = { oneOf: METHODS.map(requestLine) };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'urn:ahp-conformance:driver-protocol',
    title: 'The ahp-conformance harness driver protocol (docs/driver-protocol.md)',
    description:
      `Generated from protocol/driver-protocol/ by ${REGENERATE}; do not edit. ` +
      'The document validates a request line the suite writes; ' +
      "#/$defs/<method>Params and #/$defs/<method>Result validate each method's params and the result a driver answers. " +
      'Unknown members are allowed everywhere.',
    $ref: '#/$defs/request',
    $defs: defs,
  };
}

/** The file's text, formatted as the repository's prettier formats it (so lint leaves it alone). */
export async function driverProtocolSchemaText(): Promise<string> {
  const options = await prettier.resolveConfig(join(ROOT, SCHEMA_FILE));
  return prettier.format(JSON.stringify(driverProtocolSchema()), { ...options, parser: 'json' });
}

if (isMainModule(import.meta.url)) {
  exitWith(
    driverProtocolSchemaText().then((text) => {
      writeFileSync(join(ROOT, SCHEMA_FILE), text);
      console.log(`wrote ${SCHEMA_FILE}`);
      return 0;
    }),
  );
}
