import type { JsonObject, JsonValue } from './json.js';

/** The protocol revision this project speaks first. */
export const PROTOCOL_VERSION = 'draft';
export type ProtocolVersion = 'draft';

export const INTERCEPT_METHOD = 'hooks/intercept';
export const OBSERVE_METHOD = 'hooks/observe';
export const CAPABILITIES_METHOD = 'hooks/capabilities';

/** AHP-reserved JSON-RPC server error codes. */
export const AHP_ERROR_CODES = {
  unsupportedProtocolVersion: -32001,
  unsupportedEvent: -32002,
  backendUnavailable: -32003,
  backendInternalError: -32004,
} as const;

export interface ToolBeforeEvent {
  id: string;
  source: string;
  type: 'tool.before';
  time: string;
  session?: JsonObject;
  call: JsonObject & { id: string };
  tool: JsonObject & { name: string; input: JsonObject; origin: 'native' | 'mcp' };
  path: string;
  [key: string]: JsonValue | undefined;
}

/** A generic event envelope: the common fields every event carries. */
export interface EventEnvelope {
  id: string;
  source: string;
  type: string;
  time: string;
  [key: string]: JsonValue | undefined;
}

export const EFFECT_TYPES = [
  'deny',
  'allow',
  'ask',
  'modify',
  'message',
  'return',
  'flow',
  'inject',
] as const;
export type EffectType = (typeof EFFECT_TYPES)[number];

export const MODIFY_TARGETS = [
  'input',
  'output',
  'prompt',
  'request',
  'response',
  'content',
  'instructions',
  'summary',
  'workspace',
] as const;
export type ModifyTarget = (typeof MODIFY_TARGETS)[number];

export type DenyEffect = { type: 'deny'; reason: string; code?: string; extensions?: JsonObject };
export type AllowEffect = { type: 'allow' };
export type AskEffect = { type: 'ask' };
export type ModifyEffect = {
  type: 'modify';
  target: ModifyTarget;
  operation: 'replace' | 'merge';
  value: JsonValue;
};
export type MessageEffect = { type: 'message'; text: string };
export type ReturnEffect = { type: 'return'; value: JsonValue };
export type FlowEffect =
  | { type: 'flow'; operation: 'stop'; reason: string }
  | { type: 'flow'; operation: 'continue'; instruction?: string };
export type InjectEffect = {
  type: 'inject';
  target: 'context';
  operation: 'append';
  deliverAt: 'now' | 'next_turn';
  value: JsonValue[];
};
export type Effect =
  | DenyEffect
  | AllowEffect
  | AskEffect
  | ModifyEffect
  | MessageEffect
  | ReturnEffect
  | FlowEffect
  | InjectEffect;

/** `params.capabilities` of an intercept request. */
export interface Capabilities {
  effects: string[];
  modify?: Record<string, { replace: boolean; merge: boolean }>;
  flow?: {
    operations: Array<'stop' | 'continue'>;
    remainingContinuations?: number;
    continuationCount?: number;
    maxContinuations?: number;
  };
  inject?: { context: { append: true; deliverAt: Array<'now' | 'next_turn'> } };
  [key: string]: JsonValue | undefined;
}

export interface InterceptParams {
  protocolVersion: string;
  event: EventEnvelope;
  capabilities: Capabilities;
  extensions?: JsonObject;
  state?: JsonObject;
}

export interface InterceptRequest {
  jsonrpc: '2.0';
  id: string;
  method: typeof INTERCEPT_METHOD;
  params: InterceptParams;
}

export interface ObserveNotification {
  jsonrpc: '2.0';
  method: typeof OBSERVE_METHOD;
  params: { protocolVersion: string; event: EventEnvelope };
}

export interface InterceptResult {
  protocolVersion: string;
  effects: Effect[];
  extensions?: JsonObject;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: JsonValue;
}

export type JsonRpcId = string | number | null;

export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: JsonRpcId; result: JsonValue }
  | { jsonrpc: '2.0'; id: JsonRpcId; error: JsonRpcErrorObject };
