// The loopback control channel of the hostile stdio backends: each child says hello (with its
// pid), then `got` and `done` per request id. The driver waits on these events to know a script
// has finished writing before it raises the next call.
import { createServer, type Server, type Socket } from 'node:net';

interface RequestState {
  pid?: number;
  done: boolean;
}

/** A control server on a loopback port, and what the children told it. */
export class ControlChannel {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly requests = new Map<string, RequestState>();
  private readonly closedPids = new Set<number>();
  /** Every pid that said hello, to check at the end that none is left running. */
  readonly pids = new Set<number>();
  private waiters: Array<() => void> = [];
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    let pending = '';
    let pid: number | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      pending += text;
      for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
        const message = JSON.parse(pending.slice(0, nl)) as { pid: number; got?: string; done?: string };
        pending = pending.slice(nl + 1);
        pid = message.pid;
        this.pids.add(pid);
        if (message.got !== undefined) this.state(message.got).pid = pid;
        if (message.done !== undefined) this.state(message.done).done = true;
      }
      this.wake();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.sockets.delete(socket);
      if (pid !== undefined) this.closedPids.add(pid);
      this.wake();
    });
  }

  private state(id: string): RequestState {
    let s = this.requests.get(id);
    if (!s) this.requests.set(id, (s = { done: false }));
    return s;
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** Resolves at the next control event, or after `ms` (liveness that has no event is re-read then). */
  changed(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** The pid that took request `id`, if one did. */
  pidOf(id: string): number | undefined {
    return this.requests.get(id)?.pid;
  }

  /** True once the script of `id` finished, or the child that took it is gone. */
  finished(id: string): boolean {
    const s = this.requests.get(id);
    return s !== undefined && (s.done || (s.pid !== undefined && this.closedPids.has(s.pid)));
  }

  /** Forgets a request once the driver is done with it (the run is long). */
  forget(id: string): void {
    this.requests.delete(id);
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
