// Small scenarios of our own in the authors' format, for the runner's unit tests.
import type { JsonObject } from '../../../protocol/json.js';

export const INPUT = { path: 'notes.txt', depth: 2 };

export const FULL_CAPABILITIES = {
  effects: ['deny', 'allow', 'ask', 'modify', 'message', 'return'],
  modify: { input: { replace: true, merge: true } },
};

/** One `scenarios.json` scenario: `overrides` replace top-level members, `params` request params. */
export function interceptScenario(
  id: string,
  overrides: JsonObject = {},
  params: JsonObject = {},
): JsonObject {
  return {
    id,
    request: {
      jsonrpc: '2.0',
      id,
      method: 'hooks/intercept',
      params: {
        protocolVersion: 'draft',
        event: {
          id,
          source: 'urn:test',
          type: 'tool.before',
          time: '2026-01-01T00:00:00Z',
          session: { id: 's' },
          call: { id: 'c' },
          tool: { name: 'reader', input: INPUT },
        },
        capabilities: FULL_CAPABILITIES,
        state: { permission: 'none', candidate: null },
        ...params,
      },
    },
    response: { jsonrpc: '2.0', id, result: { protocolVersion: 'draft', effects: [] } },
    tags: ['no-effect'],
    expected: { decision: 'allow', executed: true, input: INPUT, messages: [] },
    ...overrides,
  };
}

export function scenarioFile(...scenarios: JsonObject[]): JsonObject {
  return { version: 1, scenarios };
}
