/**
 * The mocks a harness suite file runs against: one control server (every stdio mock process the
 * harness spawns steps its frames there, so attempts count across per_event processes) and one
 * HTTP mock, plus a loopback port where nothing listens.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  startHttpMock,
  startMockControl,
  type HttpMock,
  type MockControl,
} from '../../../mock-backend/index.js';
import type { MockEndpoints } from './registration.js';

/** The esbuild bundle of the stdio mock (a Node boot instead of Node plus tsx per spawn). */
export const MOCK_STDIO_BUNDLE = fileURLToPath(new URL('../../../dist/mock-stdio.mjs', import.meta.url));

/** The running mocks of one suite file. */
export interface SuiteMocks {
  control: MockControl;
  http: HttpMock;
  endpoints: MockEndpoints;
  close(): Promise<void>;
}

/** A loopback port that was free a moment ago and has nothing listening on it now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no loopback port');
  return address.port;
}

/** Starts the control server and the HTTP mock, both with an empty scenario. */
export async function startSuiteMocks(): Promise<SuiteMocks> {
  const control = await startMockControl({ scenario: { rules: [] } });
  let http: HttpMock;
  try {
    http = await startHttpMock({ scenario: { rules: [] }, control: false });
  } catch (error) {
    await control.close();
    throw error;
  }
  const stdio = existsSync(MOCK_STDIO_BUNDLE)
    ? [process.execPath, MOCK_STDIO_BUNDLE, '--control-url', control.url]
    : (({ command, args }) => [command, ...args])(control.stdioCommand());
  const endpoints: MockEndpoints = {
    stdio,
    httpUrl: http.url,
    refusedUrl: `http://127.0.0.1:${await closedPort()}/ahp`,
  };
  return {
    control,
    http,
    endpoints,
    async close() {
      await Promise.allSettled([control.close(), http.close()]);
    },
  };
}
