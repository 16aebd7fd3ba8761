/**
 * Builds the endpoint of a backend target from what the user gave, with the reference harness's
 * own rules: a spawned backend gets a minimal environment, and an HTTP URL must be https (plain
 * http only to loopback).
 */
import {
  checkBackendUrl,
  childEnvironment,
  HttpTransportConfigError,
} from '../../reference-harness/transports/index.js';
import type { BackendEndpoint } from './target.js';

/** A stdio endpoint; the child inherits only the allowlisted variables of `env` (PATH, HOME, ...). */
export function stdioEndpoint(options: {
  command: string;
  args: readonly string[];
  lifecycle: 'persistent' | 'per_event';
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}): BackendEndpoint {
  return {
    kind: 'stdio',
    lifecycle: options.lifecycle,
    command: options.command,
    args: [...options.args],
    cwd: options.cwd,
    env: childEnvironment(options.env),
  };
}

/** An HTTP endpoint, or the sentence saying why the URL cannot be used. */
export function httpEndpoint(options: {
  url: string;
  bearerTokenEnv?: string;
  bearerToken?: string;
}): { ok: true; endpoint: BackendEndpoint } | { ok: false; message: string } {
  try {
    checkBackendUrl(options.url);
  } catch (error) {
    if (error instanceof HttpTransportConfigError) return { ok: false, message: error.message };
    throw error;
  }
  return {
    ok: true,
    endpoint: {
      kind: 'http',
      url: options.url,
      ...(options.bearerTokenEnv === undefined ? {} : { bearerTokenEnv: options.bearerTokenEnv }),
      ...(options.bearerToken === undefined ? {} : { bearerToken: options.bearerToken }),
    },
  };
}
