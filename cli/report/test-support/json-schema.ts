// JSON Schema validation for the report tests, through Ajv (draft 2020-12, strict mode, so a
// schema keyword Ajv does not know is an error rather than silently ignored).
import { Ajv2020 } from 'ajv/dist/2020.js';

/** The problems of `value` against `schema`, one line each ("/path: message"); empty when valid. */
export function checkSchema(value: unknown, schema: Record<string, unknown>): string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  const validate = ajv.compile(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => {
    const extra =
      e.keyword === 'additionalProperties'
        ? ` "${String((e.params as { additionalProperty?: string }).additionalProperty)}"`
        : e.keyword === 'enum'
          ? ` (${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)})`
          : '';
    return `${e.instancePath || '/'}: ${e.message ?? e.keyword}${extra}`;
  });
}
