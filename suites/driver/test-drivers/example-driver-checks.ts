/**
 * What every example driver of docs/examples must show against the inline backend, whatever
 * language it is written in: a crashed backend under fail-closed is a synthetic denial whose audit
 * names the class, and a call after `close` fails locally with nothing sent.
 */
import { expect } from 'vitest';
import type { DriverClient } from '../client.js';
import { DriverCallError } from '../errors.js';
import type { InlineBackend } from './inline-backend.js';

/** The `invoke` params of a Bash call with `input`, as the examples' tests send it. */
export function bashCall(input: Record<string, string | boolean | number>) {
  return { event: { session: { id: 'sess_1' }, call: { id: 'call_1' }, tool: { name: 'Bash', input } } };
}

/** A backend that exits 1 under fail-closed: a synthetic denial, its audit naming `process`. */
export async function expectCrashDeniedSynthetically(client: DriverClient): Promise<void> {
  const crashed = await client.invoke(bashCall({ mode: 'exit-1' }));
  expect(crashed).toMatchObject({
    decision: 'deny',
    synthetic: true,
    audit: [
      { outcome: 'operational-failure', failureClass: 'process', policy: 'fail-closed', synthetic: true },
    ],
  });
}

/** After `close`, an `invoke` fails with -32012 and reaches no backend. */
export async function expectCloseRefusesLaterCalls(
  client: DriverClient,
  backend: InlineBackend,
): Promise<void> {
  await client.close();
  const before = backend.received().length;
  const error = await client.invoke(bashCall({ command: 'ls' })).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DriverCallError);
  expect((error as DriverCallError).rpcCode).toBe(-32012);
  expect(backend.received()).toHaveLength(before);
}
