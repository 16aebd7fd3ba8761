/**
 * The zod schema of a scenario file (the JSON form of model.ts). Objects are strict, so a typo in
 * a key is an error rather than a silently ignored setting.
 */
import { z } from 'zod';

const nonNegative = z.number().min(0);
const json = z.json();

/** Exactly one of `text` / `base64`; a refine keeps the error to one clear expectation. */
const bytesShape = { text: z.string().optional(), base64: z.base64().optional() };
const exactlyOneBytes = (v: { text?: string | undefined; base64?: string | undefined }) =>
  (v.text === undefined) !== (v.base64 === undefined);
const ONE_BYTES = { error: 'exactly one of "text" (UTF-8) or "base64"' };

const bytes = z.strictObject(bytesShape).refine(exactlyOneBytes, ONE_BYTES);
const rawChunk = z
  .strictObject({ ...bytesShape, afterMs: nonNegative.optional() })
  .refine(exactlyOneBytes, ONE_BYTES);

const effects = { effects: json.optional() };
const signal = z.enum(['SIGKILL', 'SIGTERM', 'SIGSEGV', 'SIGABRT', 'SIGINT', 'SIGHUP']);
const rpcId = z.union([z.string(), z.number(), z.null()], { error: 'a string, a number or null' });

/** Every behaviour kind; recursive through delay, sequence, probability, exit and signal. */
export const behaviourSchema: z.ZodType = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('respond'),
      ...effects,
      protocolVersion: z.string().optional(),
      omit: z.array(z.enum(['protocolVersion', 'effects'])).optional(),
      extensions: z.record(z.string(), json).optional(),
    }),
    z.strictObject({ kind: z.literal('deny'), reason: z.string().optional(), code: z.string().optional() }),
    z.strictObject({
      kind: z.literal('rpc-error'),
      code: z.number().int(),
      message: z.string().optional(),
      data: json.optional(),
    }),
    z.strictObject({ kind: z.literal('mismatched-id'), id: rpcId }),
    z.strictObject({
      kind: z.literal('not-jsonrpc'),
      variant: z.enum(['no-jsonrpc', 'result-and-error', 'batch', 'wrong-jsonrpc', 'no-id']),
    }),
    z.strictObject({ kind: z.literal('malformed-json'), text: z.string().optional() }),
    z.strictObject({
      kind: z.literal('malformed-utf8'),
      split: z.boolean().optional(),
      splitDelayMs: nonNegative.optional(),
    }),
    z.strictObject({ kind: z.literal('raw'), chunks: z.array(rawChunk) }),
    z.strictObject({
      kind: z.literal('pretty'),
      ...effects,
      indent: z.number().int().min(1).max(10).optional(),
    }),
    z.strictObject({
      kind: z.literal('slow-body'),
      ...effects,
      chunkBytes: z.number().int().min(1),
      intervalMs: nonNegative,
    }),
    z.strictObject({ kind: z.literal('reset'), afterBytes: z.number().int().min(0).optional() }),
    z.strictObject({ kind: z.literal('delay'), ms: nonNegative, then: behaviourSchema }),
    z.strictObject({ kind: z.literal('hang') }),
    z.strictObject({ kind: z.literal('silent') }),
    z.strictObject({
      kind: z.literal('sequence'),
      steps: z.array(behaviourSchema).min(1),
      then: behaviourSchema.optional(),
    }),
    z.strictObject({
      kind: z.literal('probability'),
      p: z.number().min(0).max(1),
      behaviour: behaviourSchema,
      otherwise: behaviourSchema,
    }),
    z.strictObject({ kind: z.literal('twice'), ...effects }),
    z.strictObject({
      kind: z.literal('exit'),
      code: z.number().int().min(0).max(255),
      reply: behaviourSchema.optional(),
    }),
    z.strictObject({ kind: z.literal('signal'), signal, reply: behaviourSchema.optional() }),
    z.strictObject({
      kind: z.literal('http-status'),
      status: z.number().int().min(100).max(599),
      body: bytes.optional(),
      contentType: z.string().optional(),
      headers: z.record(z.string(), z.string()).optional(),
    }),
    z.strictObject({
      kind: z.literal('http-redirect'),
      location: z.string().min(1),
      status: z.literal([301, 302, 303, 307, 308]).optional(),
    }),
    z.strictObject({ kind: z.literal('http-unauthorized'), challenge: z.string().optional() }),
    z.strictObject({ kind: z.literal('wrong-content-type'), ...effects, contentType: z.string().optional() }),
    z.strictObject({
      kind: z.literal('upload-receipt'),
      ref: z.string().optional(),
      size: z.number().int().optional(),
      sha256: z.string().optional(),
      status: z.number().int().min(100).max(599).optional(),
    }),
  ]),
);

const numberMatch = z.union(
  [
    z.number().int().min(1),
    z.strictObject({ min: z.number().int().min(1).optional(), max: z.number().int().min(1).optional() }),
  ],
  { error: 'a positive integer or {"min": n, "max": n}' },
);

const fieldPredicate = z
  .strictObject({ path: z.string().min(1), equals: json.optional(), contains: json.optional() })
  .refine((p) => 'equals' in p !== 'contains' in p, { error: 'exactly one of "equals" or "contains"' });

const match = z.strictObject({
  message: z.enum(['request', 'notification', 'any']).optional(),
  method: z.string().optional(),
  eventType: z.string().optional(),
  toolName: z.string().optional(),
  fields: z.array(fieldPredicate).optional(),
  identity: z.array(z.string()).min(1).optional(),
  attempt: numberMatch.optional(),
  delivery: numberMatch.optional(),
  transport: z.enum(['stdio', 'http', 'msw']).optional(),
});

/** A whole scenario file. */
export const scenarioSchema = z.strictObject({
  $schema: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  seed: z.number().int().optional(),
  rules: z.array(
    z.strictObject({
      name: z.string().optional(),
      match: match.optional(),
      behaviour: behaviourSchema,
      times: z.number().int().min(1).optional(),
    }),
  ),
  unmatched: behaviourSchema.optional(),
  notifications: behaviourSchema.optional(),
  unparseable: behaviourSchema.optional(),
  process: z
    .strictObject({
      banner: z
        .string()
        .refine((s) => !/[\r\n]/.test(s), { error: 'a single line (no newline characters)' })
        .optional(),
      refuseToStart: z
        .strictObject({ exitCode: z.number().int().min(0).max(255), message: z.string().optional() })
        .optional(),
      ignoreSigterm: z.boolean().optional(),
    })
    .optional(),
  http: z
    .strictObject({
      requireBearer: z
        .strictObject({ token: z.string().min(1), challenge: z.string().optional() })
        .optional(),
    })
    .optional(),
  upload: z.strictObject({ answer: behaviourSchema }).optional(),
});
