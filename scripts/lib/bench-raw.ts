import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as http from 'node:http';

/** A raw client for one backend: a round trip is one request frame out and its reply back. */
export interface RawClient {
  /** Sends `frame` and resolves with the reply's text once it arrived. */
  roundTrip(frame: string): Promise<string>;
  close(): Promise<void>;
}

const NEWLINE = 0x0a;

/**
 * Spawns `node <script>` once and talks NDJSON to it with a hand-rolled line splitter: the floor
 * any persistent stdio client pays (write a line, read a line), with nothing else on top.
 */
export function rawStdioClient(script: string): RawClient {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [script], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let waiting: ((line: string) => void) | undefined;
  let pending: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) break;
      const piece = chunk.subarray(start, nl);
      const line = pending.length === 0 ? piece : Buffer.concat([...pending, piece]);
      pending = [];
      const resolve = waiting;
      waiting = undefined;
      resolve?.(line.toString('utf8'));
      start = nl + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    roundTrip(frame) {
      return new Promise<string>((resolve) => {
        waiting = resolve;
        child.stdin.write(`${frame}\n`);
      });
    },
    async close() {
      child.stdin.end();
      await exited;
    },
  };
}

/** A raw keep-alive `node:http` client POSTing to `url`, with the agent settings the harness uses. */
export function rawHttpClient(url: string): RawClient {
  const agent = new http.Agent({ keepAlive: true });
  return {
    roundTrip(frame) {
      return new Promise<string>((resolve, reject) => {
        const body = Buffer.from(frame, 'utf8');
        const req = http.request(url, {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'content-length': body.length,
          },
        });
        req.on('error', reject);
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
          res.on('error', reject);
        });
        req.end(body);
      });
    },
    close() {
      agent.destroy();
      return Promise.resolve();
    },
  };
}

/** A backend server running as its own process, and how to stop it. */
export interface ServerProcess {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts `node <script>`, a server that announces `{"event":"ready","port":N}` as its first
 * stdout line, and resolves with its loopback URL. Closing its stdin ends it.
 */
export function startServerProcess(script: string, readyTimeoutMs: number): Promise<ServerProcess> {
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.stdin.end();
    await exited;
  };
  return new Promise<ServerProcess>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not announce a port within ${readyTimeoutMs} ms`));
    }, readyTimeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${String(code)}) before announcing a port`));
    });
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const nl = text.indexOf('\n');
      if (nl === -1) return;
      child.stdout.off('data', onData);
      clearTimeout(timer);
      const ready = JSON.parse(text.slice(0, nl)) as { event?: string; port?: number };
      if (ready.event !== 'ready' || typeof ready.port !== 'number') {
        child.kill('SIGKILL');
        reject(new Error(`${script} announced ${text.slice(0, nl)} instead of a port`));
        return;
      }
      // Later output is not ours to read, but the pipe must not fill up.
      child.stdout.resume();
      resolve({ url: `http://127.0.0.1:${ready.port}/ahp`, stop });
    };
    child.stdout.on('data', onData);
  });
}
