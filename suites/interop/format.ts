/**
 * The shape of the protocol authors' interop scenario files (their repository's `interop/`
 * folder), as far as this runner reads them. Every object the runner interprets is strict: a
 * field it does not know could change what a scenario means, so it is refused with the field
 * named rather than ignored. What the runner only passes on (a response sent verbatim, an event
 * payload, a registration document) stays open. Pure.
 */
import { z } from 'zod';
import { EFFECT_TYPES } from '../../protocol/wire-types.js';

const json = z.custom<unknown>(() => true);
const jsonObject = z.record(z.string(), json);

/** The incoming control state of an intercept request. */
export const stateSchema = z.strictObject({
  permission: z.enum(['none', 'allow', 'ask', 'deny']),
  candidate: z.union([z.null(), z.looseObject({ value: json, provenance: jsonObject.optional() })]),
  flow: z.enum(['none', 'stop', 'continue']).optional(),
  instructions: z.array(z.string()).optional(),
  injections: z.array(json).optional(),
});

/** The application outcome a client derives; every key is compared deeply. */
export const outcomeSchema = z.strictObject({
  decision: z.enum(['allow', 'deny', 'ask']),
  executed: z.boolean(),
  input: json.optional(),
  messages: z.array(z.string()),
  result: json.optional(),
  flow: z.enum(['stop', 'continue']).optional(),
  injections: z.array(json).optional(),
  continuationInstructions: z.array(z.string()).optional(),
  continuationRemaining: z.number().int().min(0).optional(),
});

const interceptRequestSchema = z.looseObject({
  jsonrpc: z.string(),
  id: z.union([z.string(), z.number()]),
  method: z.literal('hooks/intercept'),
  params: z.looseObject({
    protocolVersion: z.string(),
    event: z.looseObject({ id: z.string(), type: z.string() }),
    capabilities: z.looseObject({ effects: z.array(z.string()) }),
    state: stateSchema.optional(),
  }),
});

/** One scenario of `scenarios.json`: one intercept round trip and what it must come to. */
export const interceptScenarioSchema = z.strictObject({
  id: z.string().min(1),
  request: interceptRequestSchema,
  // Sent verbatim: a malformed response is what many scenarios test.
  response: jsonObject,
  tags: z.array(z.string()),
  expected: outcomeSchema.optional(),
  expectError: z.literal(true).optional(),
  hostExpected: outcomeSchema.optional(),
});
export type InterceptScenario = z.infer<typeof interceptScenarioSchema>;
export type InteropOutcome = z.infer<typeof outcomeSchema>;
export type InteropState = z.infer<typeof stateSchema>;

/** The effect kinds an accepted scenario may use: the draft's (a rejected one may hold anything). */
export const KNOWN_EFFECT_KINDS: readonly string[] = EFFECT_TYPES;

const registerStepSchema = z.strictObject({
  op: z.literal('register'),
  registration: jsonObject,
  requirements: z.array(json),
  context: jsonObject,
});
const catalogueStepSchema = z.union([
  registerStepSchema,
  z.looseObject({ op: z.enum(['notify', 'rawNotify']) }),
]);

/** One scenario of `catalogue-scenarios.json`. */
export const catalogueScenarioSchema = z.strictObject({
  id: z.string().min(1),
  category: z.enum(['execution', 'lineage', 'registration']),
  steps: z.array(catalogueStepSchema),
  expected: z.looseObject({
    registrations: z.array(z.strictObject({ accepted: z.boolean() })).optional(),
  }),
  requests: jsonObject,
  responses: jsonObject,
});
export type CatalogueScenario = z.infer<typeof catalogueScenarioSchema>;

/** The step operations of the lifecycle and observation-chain files. */
export const LIFECYCLE_OPS = [
  'send',
  'wait',
  'release',
  'receive',
  'accept',
  'cancel',
  'failOpen',
  'observe',
  'upload',
  'emit',
] as const;

/** One scenario of `lifecycle-scenarios.json` or `observation-chain-scenarios.json`. */
export const lifecycleScenarioSchema = z.strictObject({
  id: z.string().min(1),
  requests: jsonObject,
  responses: jsonObject,
  responseSequences: jsonObject.optional(),
  steps: z.array(z.looseObject({ op: z.enum(LIFECYCLE_OPS) })),
  expected: jsonObject,
  chain: json.optional(),
  chainProof: json.optional(),
  transports: z.array(z.string()).optional(),
  inapplicableReason: z.string().optional(),
});
export type LifecycleScenario = z.infer<typeof lifecycleScenarioSchema>;

/** The four files of the authors' interop folder, by name, with the schema of their scenarios. */
export const INTEROP_FILES = {
  'scenarios.json': interceptScenarioSchema,
  'catalogue-scenarios.json': catalogueScenarioSchema,
  'lifecycle-scenarios.json': lifecycleScenarioSchema,
  'observation-chain-scenarios.json': lifecycleScenarioSchema,
} as const;
export type InteropFileName = keyof typeof INTEROP_FILES;
export const INTEROP_FILE_NAMES = Object.keys(INTEROP_FILES) as InteropFileName[];

/** A scenario file: a version, an optional suite name, the scenarios. */
export const interopFileSchema = z.strictObject({
  version: z.number().int(),
  suite: z.string().optional(),
  scenarios: z.array(z.looseObject({ id: z.string().min(1) })),
});
