/**
 * The processes a run started, however deep (vitest workers, drivers, the backends and mocks those
 * spawned), found from the process table, so that an interrupted run leaves none behind even when
 * a driver under test does not reap its own children. Linux reads /proc; elsewhere `ps` is asked;
 * where neither works the list is empty and only vitest's and execa's own cleanup apply.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { systemClock } from '../../protocol/clock.js';
import { stopChild } from '../../protocol/stop-child.js';

/** How often the process table is read while waiting for the SIGTERMed to end. */
const POLL_MS = 50;

/** One process: its id and when it started (so that a reused id is never mistaken for it). */
export interface ProcessId {
  pid: number;
  /** Opaque start mark: clock ticks since boot on Linux, the `ps` start time elsewhere. */
  started: string;
}

interface Row extends ProcessId {
  ppid: number;
}

/** A living process's row of `/proc/<pid>/stat` (undefined for a zombie): the command sits in parentheses and may hold spaces, so fields count after it. */
export function parseProcStat(text: string): Row | undefined {
  const close = text.lastIndexOf(')');
  const pid = Number.parseInt(text, 10);
  if (close < 0 || !Number.isSafeInteger(pid)) return undefined;
  // After ")": state(0) ppid(1) ... starttime is field 22 of the whole line, index 19 here.
  const fields = text.slice(close + 2).split(' ');
  // A zombie has ended already; only its parent's wait is missing.
  if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
  const ppid = Number(fields[1]);
  const started = fields[19];
  if (!Number.isSafeInteger(ppid) || started === undefined) return undefined;
  return { pid, ppid, started };
}

function procTable(): Row[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const rows: Row[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const row = parseProcStat(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      if (row) rows.push(row);
    } catch {
      // The process ended while the table was read.
    }
  }
  return rows;
}

function psTable(): Row[] {
  try {
    const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,lstart='], { encoding: 'utf8' });
    return out
      .split('\n')
      .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), started: (m[3] as string).trim() }));
  } catch {
    return [];
  }
}

function processTable(): Row[] {
  return procTable() ?? psTable();
}

/** Every living descendant of `root` (children, their children, ...), not `root` itself. */
export function descendantsOf(root: number = process.pid): ProcessId[] {
  const children = new Map<number, Row[]>();
  for (const row of processTable()) children.set(row.ppid, [...(children.get(row.ppid) ?? []), row]);
  const found: ProcessId[] = [];
  const queue = [root];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    for (const child of children.get(pid) ?? []) {
      found.push({ pid: child.pid, started: child.started });
      queue.push(child.pid);
    }
  }
  return found;
}

/** Which of `known` still run as the same processes (same id, same start). */
export function stillRunning(known: readonly ProcessId[]): ProcessId[] {
  if (known.length === 0) return [];
  const now = new Map(processTable().map((row) => [row.pid, row.started]));
  return known.filter((p) => now.get(p.pid) === p.started);
}

function signal(processes: readonly ProcessId[], name: NodeJS.Signals): void {
  for (const p of processes) {
    try {
      process.kill(p.pid, name);
    } catch {
      // Gone already.
    }
  }
}

/**
 * Ends every process of `known` that still runs: SIGTERM first (a driver reaps its own backends
 * then), SIGKILL for what is left after `graceMs`. Returns how many had to be signalled.
 */
export async function reapProcesses(known: readonly ProcessId[], graceMs: number): Promise<number> {
  const alive = stillRunning(known);
  if (alive.length === 0) return 0;
  let left = alive;
  let stopped = false;
  // The table is polled: these are not our children, so no exit event tells of their end.
  const allEnded = async () => {
    for (left = stillRunning(left); left.length > 0 && !stopped; left = stillRunning(left)) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };
  await stopChild({ signal: (name) => signal(left, name), ended: allEnded }, graceMs, systemClock);
  stopped = true;
  return alive.length;
}
