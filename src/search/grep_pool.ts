/**
 * Where `exact` and `regex` scans run: on a worker while an executor holds the pool (a server,
 * the CLI), else on the calling thread; either way under the call's deadline through
 * `util/bounded.ts`, the one limit that stops a backtracking regular expression. A pattern
 * that backtracks for minutes costs its call the time limit and nothing else: the server's
 * thread never runs it.
 *
 * @module
 */

import { BoundExceeded, runBounded } from "../util/bounded.ts";
import { assetUrl } from "../util/assets.ts";
import { createWorkerPool, wholeBuffers, type WorkerPool } from "../util/worker_pool.ts";
import { type ScanFile, scanFiles, type ScanHit, type ScanRunner } from "./grep.ts";

/** One batch of a scan, as the worker gets it. */
export interface ScanJob {
  source: string;
  flags: string;
  files: ScanFile[];
  limit: number;
  /** `Date.now()` past which the scan stops (`Infinity`: a call without a limit). */
  deadline: number;
}

/** What a batch found, and whether its deadline cut it off. */
export interface ScanReply {
  hits: ScanHit[];
  timedOut: boolean;
}

/**
 * Scans a batch under its deadline (what the worker runs; also the fallback on this thread).
 *
 * @example
 * ```ts
 * const bytes = new TextEncoder().encode("abba");
 * const files = [{ bytes, lengths: Uint32Array.of(4), startLines: Uint32Array.of(1) }];
 * scanBounded({ source: "b+", flags: "g", files, limit: 5, deadline: Date.now() + 1000 });
 * // { hits: [{ file: 0, line: 1, endLine: 1, column: 2, snippet: "abba" }], timedOut: false }
 * ```
 */
export function scanBounded(job: ScanJob): ScanReply {
  const left = job.deadline - Date.now();
  if (left <= 0) return { hits: [], timedOut: true };
  const re = new RegExp(job.source, job.flags);
  try {
    return { hits: runBounded(() => scanFiles(re, job.files, job.limit), left), timedOut: false };
  } catch (err) {
    if (err instanceof BoundExceeded) return { hits: [], timedOut: true };
    throw err;
  }
}

let pool: WorkerPool<ScanJob, ScanReply> | null = null;
let holders = 0;

/**
 * Starts the scan worker for as long as the returned release is not called (an executor holds
 * it while it is open; the worker ends with the last holder).
 */
export function holdScanWorker(): () => void {
  holders++;
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    if (--holders === 0) {
      pool?.close();
      pool = null;
    }
  };
}

/**
 * The runner scans go to: the worker while one is held (started on first use), else this
 * thread (still bounded, but the thread is busy meanwhile).
 */
export const runScan: ScanRunner = async (job) => {
  if (holders > 0) {
    // Two workers where there are two cores: one pattern that runs to its limit does not
    // hold every other regex search back for as long.
    pool ??= createWorkerPool<ScanJob, ScanReply>({
      url: assetUrl("src/search/grep_worker.ts"),
      size: Math.max(1, Math.min(2, navigator.hardwareConcurrency ?? 1)),
      name: "scan",
      // The texts' bytes move to the worker (read for this scan only).
      transfer: (j) => wholeBuffers(j.files.map((f) => f.bytes)),
    });
    const running = pool;
    if (running) {
      try {
        return await running.run(job);
      } catch (err) {
        // A worker that failed answers nothing more: the next scan starts new ones.
        if (pool === running) {
          running.close();
          pool = null;
        }
        throw err;
      }
    }
  }
  return scanBounded(job);
};
