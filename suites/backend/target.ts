/**
 * The backend under test, as the CLI hands it to the backend suites through vitest's `provide`.
 * The bearer token travels here as a value because the suites run in vitest workers; it is
 * redacted from every report and every piece of evidence (see `redact.ts`).
 */
import type { JsonObject, JsonValue } from '../../protocol/json.js';
import type { SuiteSettings } from '../common/case-meta.js';
import { DEFAULT_ALLOW_INPUT, type ToolInputs } from './frames.js';

/** The binding a backend is exercised over; stdio carries its lifecycle. */
export type BackendBinding = 'stdio-persistent' | 'stdio-per_event' | 'http';

/** How to reach the backend under test. */
export type BackendEndpoint =
  | {
      kind: 'stdio';
      lifecycle: 'persistent' | 'per_event';
      command: string;
      args: string[];
      cwd: string;
      /** The child's whole environment (already minimal: see `childEnvironment`). */
      env: Record<string, string>;
    }
  | {
      kind: 'http';
      url: string;
      /** The name the token came from, for the report. */
      bearerTokenEnv?: string;
      /** The resolved token: sent in `Authorization`, redacted everywhere else. */
      bearerToken?: string;
    };

/** Everything the backend suites need to know about the target. */
export interface BackendTarget {
  endpoint: BackendEndpoint;
  /** A tool input the vendor says its policy denies; without it deny-path checks are untested. */
  denyInput?: JsonObject;
  /**
   * A tool input the vendor says its policy answers with an edit or added context (modify,
   * inject); without it the returned-value checks are untested.
   */
  modifyInput?: JsonObject;
  /** A tool input the vendor says its policy lets through; `DEFAULT_ALLOW_INPUT` when absent. */
  allowInput?: JsonObject;
  /** Liveness: every request must be answered within this many milliseconds. */
  deadlineMs: number;
}

declare module 'vitest' {
  interface ProvidedContext {
    ahpBackendTarget: BackendTarget;
    ahpSettings: SuiteSettings;
  }
}

/** The binding of an endpoint, as case names and transports spell it. */
export function bindingOf(endpoint: BackendEndpoint): BackendBinding {
  return endpoint.kind === 'http' ? 'http' : `stdio-${endpoint.lifecycle}`;
}

/** The claim's binding name (`stdio` or `http`) of an endpoint. */
export function claimBindingOf(endpoint: BackendEndpoint): 'stdio' | 'http' {
  return endpoint.kind;
}

/** The tool inputs the frames of a run carry. */
export function toolInputsOf(target: BackendTarget): ToolInputs {
  return {
    allow: target.allowInput ?? DEFAULT_ALLOW_INPUT,
    ...(target.denyInput === undefined ? {} : { deny: target.denyInput }),
    ...(target.modifyInput === undefined ? {} : { modify: target.modifyInput }),
  };
}

/** The strings that must never appear in a report: the bearer token, when there is one. */
export function secretsOf(target: BackendTarget): string[] {
  const token = target.endpoint.kind === 'http' ? target.endpoint.bearerToken : undefined;
  return token === undefined || token === '' ? [] : [token];
}

/** What the report says was tested: the endpoint without its environment or token. */
export function describeTarget(target: BackendTarget): JsonValue {
  const e = target.endpoint;
  const endpoint: JsonObject =
    e.kind === 'stdio'
      ? { binding: 'stdio', lifecycle: e.lifecycle, command: e.command, args: e.args }
      : {
          binding: 'http',
          url: e.url,
          ...(e.bearerTokenEnv === undefined ? {} : { bearerTokenEnv: e.bearerTokenEnv }),
        };
  return {
    ...endpoint,
    deadlineMs: target.deadlineMs,
    allowInput: target.allowInput ?? DEFAULT_ALLOW_INPUT,
    denyInput: target.denyInput ?? null,
    modifyInput: target.modifyInput ?? null,
  };
}
