import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server listening on loopback: its URL, its port, and an idempotent close. */
export interface LoopbackListener {
  url: string;
  port: number;
  /** Stops accepting, drops open connections, and resolves once the server is closed; safe twice. */
  close(): Promise<void>;
}

/** Starts `server` on loopback (port 0 unless given) and resolves once it listens. */
export async function listenOnLoopback(
  server: Server,
  options: { port?: number; host?: string },
): Promise<LoopbackListener> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}/`,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
