/**
 * The mocks a harness suite file runs against: one control server (every stdio mock process the
 * harness spawns steps its frames there, so attempts count across per_event processes) and one
 * HTTP mock, plus a loopback port where nothing listens.
 */
import { createServer } from 'node:net';
import {
  startHttpMock,
  startMockControl,
  type HttpMock,
  type MockControl,
} from '../../../mock-backend/index.js';
import type { MockEndpoints } from './registration.js';

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
  // The control server's own entry: an esbuild bundle split so that the control path never loads
  // the scenario schema (zod): with zod a static import, every stdio mock start cost twice the CPU
  // (~0.3 s instead of ~0.15 s here), and a full run starts ~150.
  const { command, args } = control.stdioCommand();
  const stdio = [command, ...args];
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
