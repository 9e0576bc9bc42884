/**
 * A pool of parsing workers, one per core, so indexing uses the whole machine.
 *
 * @module
 */

import { assetUrl } from "../util/assets.ts";
import { createWorkerPool, wholeBuffers } from "../util/worker_pool.ts";
import { type EncodedExtraction, extractEncoded } from "./extract.ts";
import { createLeanPool, isLeanFile } from "./lean_pool.ts";

/** Parses files in parallel; `close()` ends the workers and parse processes. */
export interface ParsePool {
  /** Extracts one file from its bytes; they may be moved to a worker (detached here). */
  extract(path: string, bytes: Uint8Array, language: string): Promise<EncodedExtraction>;
  close(): Promise<void>;
}

/** One file to parse, as sent to `worker.ts`. */
export interface ParseJob {
  path: string;
  bytes: Uint8Array;
  language: string;
}

/**
 * A pool of `size` workers; with size 0 (or when workers cannot start) everything runs
 * on the calling thread. A worker that already compiled a file's grammar is preferred
 * (compiling one can take a second). Files of grammars with a huge lexer go to parse
 * processes (`lean_pool.ts`), whatever the size; where none can run, here too.
 */
export function createParsePool(size = defaultPoolSize()): ParsePool {
  const pool = createWorkerPool<ParseJob, EncodedExtraction>({
    url: assetUrl("src/index/worker.ts"),
    size,
    name: "parse",
    affinity: (job) => job.language,
    // A file's bytes move to the worker (no copy left on this thread for its collector).
    transfer: (job) => wholeBuffers([job.bytes]),
  });
  const here: ParsePool["extract"] = pool
    ? (path, bytes, language) => pool.run({ path, bytes, language })
    : extractEncoded;
  let lean: ReturnType<typeof createLeanPool> | undefined;
  return {
    async extract(path, bytes, language) {
      if (isLeanFile(path, bytes, language)) {
        lean ??= createLeanPool(Math.max(1, size));
        if (lean && !lean.failed) {
          try {
            return await lean.extract(path, bytes, language);
          } catch {
            // The process died or did not start: this file and the next parse here.
          }
        }
      }
      return here(path, bytes, language);
    },
    async close() {
      pool?.close();
      await lean?.close();
    },
  };
}

/**
 * A parse pool that can be restarted between files: `recycle()` waits for the files in
 * flight, ends the workers (a worker's heap and compiled grammars go with it) and starts
 * fresh ones for the next file. Indexing uses it to stay inside its memory budget.
 */
export interface RecyclingParsePool extends ParsePool {
  recycle(): Promise<void>;
  /** How many times the workers were restarted. */
  readonly recycled: number;
}

/** {@link createParsePool} with {@link RecyclingParsePool.recycle}. */
export function createRecyclingParsePool(size?: number): RecyclingParsePool {
  let pool = createParsePool(size);
  let inFlight = 0;
  let recycled = 0;
  let drained: (() => void) | null = null;
  let restarting: Promise<void> | null = null;
  return {
    async extract(path, bytes, language) {
      while (restarting) await restarting;
      inFlight++;
      try {
        return await pool.extract(path, bytes, language);
      } finally {
        if (--inFlight === 0) drained?.();
      }
    },
    recycle() {
      restarting ??= (async () => {
        if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
        drained = null;
        await pool.close();
        pool = createParsePool(size);
        recycled++;
      })().finally(() => {
        restarting = null;
      });
      return restarting;
    },
    get recycled() {
      return recycled;
    },
    close: () => pool.close(),
  };
}

/** One worker per core. */
export function defaultPoolSize(): number {
  return Math.max(1, Math.min(8, navigator.hardwareConcurrency ?? 2));
}
