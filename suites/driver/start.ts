import type { DriverClientOptions } from './client-options.js';
import { DriverClient } from './client.js';
import { DriverUnavailableError } from './errors.js';
import type { InitializeParams, InitializeResult } from './shapes.js';

/** A driver that answered `initialize` and supports the requested protocol revision. */
export interface StartedDriver {
  client: DriverClient;
  info: InitializeResult;
}

/**
 * Spawns a driver and initializes it. Any failure disposes the driver before it is thrown, so a
 * caller that gets an error has nothing left to clean up.
 */
export async function startDriver(
  command: readonly string[],
  params: InitializeParams,
  options: DriverClientOptions = {},
): Promise<StartedDriver> {
  const client = new DriverClient(command, options);
  try {
    const info = await client.initialize(params);
    if (!info.protocolVersions.includes(params.protocolVersion)) {
      throw new DriverUnavailableError(
        'unsupported-version',
        `The driver supports protocol revision(s) ${info.protocolVersions.map((v) => `"${v}"`).join(', ')} but not "${params.protocolVersion}", the only revision this suite tests.`,
        { stderr: client.stderrText() },
      );
    }
    return { client, info };
  } catch (error) {
    await client.dispose();
    throw error;
  }
}
