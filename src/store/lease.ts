/**
 * Who writes a store and which generations its readers still need. The writer lease and each
 * reader's pin are records naming a process by host, pid and start time (a pid the system
 * reused is another process); a record of a process that is gone is taken over (the lease)
 * or dropped (a pin).
 *
 * @module
 */

/** The writer lease: who writes, since when, and when that process started. */
export interface Lease {
  pid: number;
  host: string;
  at: number;
  /** Start time of the process (clock ticks since boot, from `/proc/<pid>/stat`); null elsewhere. */
  start?: number | null;
}

/** A reader's pin: the generations a live process may still load blobs of. */
export interface Pin extends Lease {
  generations: number[];
}

/** Generations one process pins: the one it serves and the one before. */
export const PINS_PER_PROCESS = 2;

/** Start time of a process on Linux, or null when unknown. */
function processStart(pid: number): number | null {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // Fields after the command (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const start = Number(fields[19]);
    return Number.isFinite(start) ? start : null;
  } catch {
    return null;
  }
}

const START = processStart(Deno.pid);

/** This process's lease record, stamped now. */
export function myLease(): Lease {
  return { pid: Deno.pid, host: Deno.hostname(), at: Date.now(), start: START };
}

/** This process's pin of `generations`, stamped now. */
export function myPin(generations: number[]): Pin {
  return { ...myLease(), generations };
}

/** This process's pin key (pid and start time: a reused pid is another process). */
export function pinKey(): Deno.KvKey {
  return ["pin", Deno.hostname(), Deno.pid, START ?? 0];
}

/** Whether `l` names this process. */
export function isMine(l: Lease): boolean {
  return l.pid === Deno.pid && l.host === Deno.hostname() && (l.start ?? START) === START;
}

/**
 * Whether the process `l` names still runs. One of another host is assumed alive; without
 * `/proc` (not Linux) a process of this host is too.
 */
export function isAlive(l: Lease): boolean {
  if (l.host !== Deno.hostname()) return true;
  if (isMine(l)) return true;
  try {
    Deno.statSync(`/proc/${l.pid}`);
  } catch {
    // No /proc entry: dead on Linux; elsewhere assume alive only if /proc is missing.
    try {
      Deno.statSync("/proc/self");
      return false;
    } catch {
      return true;
    }
  }
  // The pid lives; it is the lease holder only if it started when the holder did.
  if (l.start === undefined || l.start === null) return true;
  const start = processStart(l.pid);
  return start === null || start === l.start;
}
