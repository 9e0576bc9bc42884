/**
 * Where `exact` and `regex` scans run: on a worker while an executor holds the pool (a server,
 * the CLI), else on the calling thread; either way under the call's deadline through
 * `util/bounded.ts`, the one limit that stops a backtracking regular expression. A pattern
 * that backtracks for minutes costs its call the time limit and nothing else: the server's
 * thread never runs it. A literal look-up's scan (`runLiteralScan`) is the exception: its
 * pattern is escaped text, which cannot backtrack, and its rows are few.
 *
 * @module
 */

import { assetUrl } from "../util/assets.ts";
import { createPool, heldPool, wholeBuffers } from "../util/worker_pool.ts";
import { scanFiles, type ScanJob, type ScanReply, type ScanRunner } from "./grep.ts";

export type { ScanJob, ScanReply } from "./grep.ts";

/**
 * Scans a batch under its deadline (what the worker runs; also the fallback on this thread).
 *
 * @example
 * ```ts
 * const bytes = new TextEncoder().encode("abba");
 * const files = [{ bytes, lengths: Uint32Array.of(4), startLines: Uint32Array.of(1) }];
 * await scanBounded({ source: "b+", flags: "g", files, limit: 5, deadline: Date.now() + 1000 });
 * // { hits: [{ file: 0, line: 1, endLine: 1, column: 2, snippet: "abba" }], timedOut: false }
 * ```
 */
export async function scanBounded(job: ScanJob): Promise<ScanReply> {
  const left = job.deadline - Date.now();
  if (left <= 0) return { hits: [], timedOut: true };
  // node:vm, which bounds the scan, is loaded by the first scan (a command that does not
  // scan never loads it: issue 34).
  const { BoundExceeded, runBounded } = await import("../util/bounded.ts");
  const re = new RegExp(job.source, job.flags);
  try {
    return {
      hits: runBounded(() => scanFiles(re, job.files, job.limit, job.edges), left),
      timedOut: false,
    };
  } catch (err) {
    if (err instanceof BoundExceeded) return { hits: [], timedOut: true };
    throw err;
  }
}

/**
 * The scan workers: two where there are two cores (one pattern that runs to its limit does not
 * hold every other regex search back for as long), made while an executor holds them.
 */
const scans = heldPool(() =>
  createPool<ScanJob, ScanReply>({
    name: "scan",
    member: { worker: assetUrl("src/search/grep_worker.ts") },
    size: Math.max(1, Math.min(2, navigator.hardwareConcurrency ?? 1)),
    // The texts' bytes move to the worker (read for this scan only).
    transfer: (j) => wholeBuffers(j.files.map((f) => f.bytes)),
    inline: scanBounded,
  })
);

/**
 * Starts the scan worker for as long as the returned release is not called (an executor holds
 * it while it is open; the worker ends with the last holder).
 */
export const holdScanWorker = (): () => void => scans.hold();

/**
 * The runner scans go to: a worker while one is held (started on first use; one that fails is
 * replaced), else this thread (still bounded, but the thread is busy meanwhile).
 */
export const runScan: ScanRunner = (job) => scans.held ? scans.get().run(job) : scanBounded(job);

/** Bytes of text a literal's scan takes at a time on the calling thread (~0.2 ms of code). */
export const LITERAL_BATCH_BYTES = 128 * 1024;

/** The pattern {@link runLiteralScan} last compiled (`scanFiles` resets its `lastIndex`). */
let lastLiteral: { source: string; flags: string; re: RegExp } | undefined;

/**
 * The runner of a literal look-up's scan (`scanText` with whole words), on the calling thread:
 * its pattern is an exact query's — the text escaped, each space also a break between string
 * literals (`compilePattern`) — of a few words, which takes time in proportion to the text
 * times the words (measured: 256 KiB in 1–12 ms for up to seven words, whatever the text), so
 * it needs no worker's time limit; handing a look-up's few rows to a worker cost ~1 ms of CPU
 * (most of the look-up) and the worker's isolate. Its batches are {@link LITERAL_BATCH_BYTES}
 * (the thread turns in between); one that starts past the deadline is cut off there.
 */
export const runLiteralScan: ScanRunner = (job) => {
  if (Date.now() >= job.deadline) return Promise.resolve({ hits: [], timedOut: true });
  // A look-up hands its rows over in several batches of one pattern: compiled once.
  if (lastLiteral?.source !== job.source || lastLiteral.flags !== job.flags) {
    lastLiteral = { source: job.source, flags: job.flags, re: new RegExp(job.source, job.flags) };
  }
  const re = lastLiteral.re;
  return Promise.resolve({ hits: scanFiles(re, job.files, job.limit, job.edges), timedOut: false });
};

/** Scan workers alive now (0 while no executor holds them). */
export const scanWorkersAlive = (): number => scans.held ? scans.get().members.length : 0;
