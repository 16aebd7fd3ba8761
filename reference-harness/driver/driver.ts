import type { Readable, Writable } from 'node:stream';
import { JSONRPCErrorException, JSONRPCServer, type JSONRPCRequest } from 'json-rpc-2.0';
import type { Clock } from '../../protocol/clock.js';
import { isJsonObject, type JsonValue } from '../../protocol/json.js';
import { encodeFrame, NdjsonDecoder, type NdjsonItem } from '../../protocol/ndjson.js';
import { DRIVER_ERROR_CODES, DriverMethodError } from './errors.js';
import { DriverMethods, type DriverHarnessDefaults } from './driver-methods.js';

/** The streams and settings of one driver run; `main.ts` passes the real process's. */
export interface ReferenceDriverIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** The environment handed to the harness (`tokenEnv`, child environments). */
  env: Record<string, string | undefined>;
  /** Aborting ends the run as stdin's end would: the harness is closed first. */
  signal?: AbortSignal;
  clock?: Clock;
  harnessDefaults?: DriverHarnessDefaults;
}

type Handler = (params: unknown) => unknown;

/** Turns the methods' refusals into JSON-RPC errors; anything else is an internal error. */
function exposed(handler: Handler): (params: unknown) => Promise<unknown> {
  return async (params) => {
    try {
      return await handler(params);
    } catch (error) {
      if (error instanceof DriverMethodError)
        throw new JSONRPCErrorException(error.message, error.rpcCode, error.data);
      const message = error instanceof Error ? error.message : String(error);
      throw new JSONRPCErrorException(message, DRIVER_ERROR_CODES.harnessFailure, {
        code: 'harness-failure',
      });
    }
  };
}

/**
 * Runs the reference harness's driver (harness driver protocol v1) over the given streams:
 * JSON-RPC 2.0, one object per line. Requests are served concurrently, so a `close` can end an
 * `invoke` in flight. Resolves with an exit code once stdin ends (or `signal` aborts), the
 * harness is closed and every answer is written.
 */
export async function runReferenceDriver(io: ReferenceDriverIo): Promise<number> {
  const log = (line: string) => io.stderr.write(`ahp-reference-driver: ${line}\n`);
  const methods = new DriverMethods({
    env: io.env,
    log,
    ...(io.clock === undefined ? {} : { clock: io.clock }),
    ...(io.harnessDefaults === undefined ? {} : { harnessDefaults: io.harnessDefaults }),
  });
  // Refusals are answers, not incidents: the library's console warning for each is silenced.
  const server = new JSONRPCServer({ errorListener: () => undefined });
  server.addMethod(
    'initialize',
    exposed((p) => methods.initialize(p)),
  );
  server.addMethod(
    'configure',
    exposed((p) => methods.configure(p)),
  );
  server.addMethod(
    'invoke',
    exposed((p) => methods.invoke(p)),
  );
  server.addMethod(
    'close',
    exposed((p) => methods.close(p)),
  );

  const write = (message: object) => {
    if (!io.stdout.writableEnded && !io.stdout.destroyed) io.stdout.write(encodeFrame(message));
  };
  const refuse = (id: JsonValue, code: number, message: string) =>
    write({ jsonrpc: '2.0', id, error: { code, message } });
  const inflight = new Set<Promise<void>>();
  const handle = (item: NdjsonItem) => {
    if (item.kind === 'fault') {
      refuse(null, DRIVER_ERROR_CODES.parseError, `Parse error: ${item.message}`);
      return;
    }
    if (!isJsonObject(item.value)) {
      // Batches and bare values are not part of the driver protocol.
      refuse(null, DRIVER_ERROR_CODES.invalidRequest, 'Invalid Request: one JSON-RPC object per line');
      return;
    }
    const answered = Promise.resolve(server.receive(item.value as unknown as JSONRPCRequest)).then(
      (response) => {
        if (response) write(response);
      },
      (error: unknown) => {
        log(`unanswered request: ${String(error)}`);
      },
    );
    inflight.add(answered);
    void answered.then(() => inflight.delete(answered));
  };

  const decoder = new NdjsonDecoder();
  const onData = (chunk: Buffer | string) => {
    for (const item of decoder.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) handle(item);
  };
  await new Promise<void>((resolve) => {
    const finish = () => {
      io.stdin.off('data', onData);
      io.signal?.removeEventListener('abort', finish);
      resolve();
    };
    if (io.signal?.aborted) return finish();
    io.stdin.on('data', onData);
    io.stdin.once('end', finish);
    io.stdin.once('close', finish);
    io.stdin.once('error', finish);
    io.signal?.addEventListener('abort', finish, { once: true });
  });
  for (const item of decoder.end()) handle(item);
  // Closing first ends any invoke still in flight, so its answer can be written before we leave.
  await methods.shutdown();
  await Promise.allSettled([...inflight]);
  return 0;
}
