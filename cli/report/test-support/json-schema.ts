// A small JSON Schema checker for the subset report.schema.json uses. It refuses any keyword it
// does not implement, so the schema cannot quietly rely on a rule nobody checks.

type Schema = { [keyword: string]: unknown };

const ANNOTATIONS = new Set(['$schema', '$id', 'title', 'description']);
const KEYWORDS = new Set([
  ...ANNOTATIONS,
  '$defs',
  '$ref',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'minimum',
  'minLength',
  'pattern',
]);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

function childPath(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : `${path}.${key}`;
}

/** Validates `value` against `schema` (resolving `#/$defs/...` in `root`); returns every error with its path. */
export function checkSchema(value: unknown, schema: Schema, root: Schema = schema, path = '$'): string[] {
  for (const keyword of Object.keys(schema)) {
    if (!KEYWORDS.has(keyword))
      throw new Error(`schema keyword "${keyword}" is not supported by this checker`);
  }
  const errors: string[] = [];
  if (typeof schema.$ref === 'string') {
    const name = /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1];
    const target =
      name === undefined ? undefined : (root.$defs as Record<string, Schema> | undefined)?.[name];
    if (!target) throw new Error(`unresolvable $ref ${schema.$ref}`);
    errors.push(...checkSchema(value, target, root, path));
  }
  if (typeof schema.type === 'string' && !matchesType(value, schema.type)) {
    return [...errors, `${path}: expected ${schema.type}, got ${typeOf(value)}`];
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => e === value)) {
    errors.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  }
  if ('const' in schema && schema.const !== value)
    errors.push(`${path}: must be ${JSON.stringify(schema.const)}`);
  if (typeof schema.minimum === 'number' && typeof value === 'number' && value < schema.minimum) {
    errors.push(`${path}: ${value} is below ${schema.minimum}`);
  }
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength)
      errors.push(`${path}: too short`);
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) {
      errors.push(`${path}: ${JSON.stringify(value)} does not match ${schema.pattern}`);
    }
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    value.forEach((item, i) =>
      errors.push(...checkSchema(item, schema.items as Schema, root, childPath(path, i))),
    );
  }
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const key of (schema.required ?? []) as string[]) {
      if (!(key in object)) errors.push(`${path}: missing required "${key}"`);
    }
    for (const [key, child] of Object.entries(object)) {
      const sub = properties[key];
      if (sub) errors.push(...checkSchema(child, sub, root, childPath(path, key)));
      else if (schema.additionalProperties === false) errors.push(`${path}: unexpected "${key}"`);
      else if (typeof schema.additionalProperties === 'object') {
        errors.push(...checkSchema(child, schema.additionalProperties as Schema, root, childPath(path, key)));
      }
    }
  }
  return errors;
}
