/**
 * The memory budget of an indexing run (`--max-memory`): what the process's resident
 * memory (workers included) grew by since the run started is compared with it after each
 * file, so that a server holding its search structures is not charged for them. Past three quarters of it the run
 * streams one file at a time; past it the parse workers are restarted once (their heaps
 * go with them) and, still past it, the run fails
 * with a sentence that says what to do, and the last complete index stays as it was.
 *
 * @module
 */

import { CodectxError } from "../errors.ts";

/**
 * Default budget, in MiB: what a laptop spares for indexing. The run's memory does not grow
 * with the repository (files stream through), but each parse worker grows to ~250–300 MiB
 * over a few thousand files (measured on the Python standard library: a run adds ~550 MiB
 * with two workers), so 512 would fail or throttle ordinary runs.
 */
export const DEFAULT_MAX_MEMORY_MIB = 1024;

/** Share of the budget past which files go through one at a time. */
const TIGHT_SHARE = 0.75;

/** Bytes in a MiB. */
const MIB = 1024 * 1024;

/** Parse processes this process started (`lean_pool.ts`): their memory is the run's too. */
const children = new Set<number>();

/** Counts a child process's resident memory in {@link residentBytes} until it ends. */
export function trackChild(pid: number, ended: Promise<unknown>): void {
  children.add(pid);
  ended.finally(() => children.delete(pid));
}

/** The resident memory of a child process in bytes (0 where `/proc` cannot tell). */
function childResident(pid: number): number {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The resident memory of this process and of the parse processes it started, in bytes. */
export function residentBytes(): number {
  let rss = Deno.memoryUsage().rss;
  for (const pid of children) rss += childResident(pid);
  return rss;
}

/** A run's memory budget. */
export class MemoryBudget {
  /** The highest resident memory seen by any check, in bytes. */
  peak = 0;
  /** Resident memory when the run started, in bytes. */
  private readonly base: number;

  constructor(
    /** The budget in MiB. */
    readonly limitMiB: number,
    private readonly resident: () => number = residentBytes,
  ) {
    this.base = resident();
    this.peak = this.base;
  }

  /** What resident memory grew by since the run started, in bytes (kept in {@link peak}). */
  sample(): number {
    const rss = this.resident();
    if (rss > this.peak) this.peak = rss;
    return rss - this.base;
  }

  /** Whether the process holds more than the budget. */
  over(): boolean {
    return this.sample() > this.limitMiB * MIB;
  }

  /** Whether the run is near the budget (files should then go one at a time). */
  tight(): boolean {
    return this.sample() > this.limitMiB * MIB * TIGHT_SHARE;
  }

  /** Fails the run when the process holds more than the budget; `when` says how far it got. */
  enforce(when: string): void {
    const grown = this.sample();
    if (grown <= this.limitMiB * MIB) return;
    throw new CodectxError(
      "unavailable",
      `indexing went over its memory budget of ${this.limitMiB} MiB (it grew by ${
        Math.round(grown / MIB)
      } MiB ${when}); the last complete index is unchanged. Raise the budget ` +
        `(--max-memory MiB) or leave large folders out (--exclude, .codectxignore)`,
    );
  }
}
