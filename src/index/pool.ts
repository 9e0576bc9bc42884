/**
 * A pool of parsing workers, one per core, so indexing uses the whole machine.
 *
 * @module
 */

import { assetUrl } from "../util/assets.ts";
import { createPool, wholeBuffers } from "../util/worker_pool.ts";
import { type EncodedExtraction, extractEncoded } from "./extract.ts";
import { createLeanPool, isLeanFile, type ParseJob } from "./lean_pool.ts";

export type { ParseJob };

/**
 * Parses files in parallel; `recycle()` waits for the files in flight and restarts the
 * workers and processes (their heaps and compiled grammars go with them: indexing stays
 * inside its memory budget so); `close()` ends them.
 */
export interface ParsePool {
  /** Extracts one file from its bytes; they may be moved to a worker (detached here). */
  extract(path: string, bytes: Uint8Array, language: string): Promise<EncodedExtraction>;
  recycle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A pool of `size` workers; with size 0 (or when workers cannot start) everything runs
 * on the calling thread. A worker that already compiled a file's grammar is preferred
 * (compiling one can take a second). Files of grammars with a huge lexer go to parse
 * processes (`lean_pool.ts`), whatever the size; where none can run, here too.
 */
export function createParsePool(size = defaultPoolSize()): ParsePool {
  const workers = createPool<ParseJob, EncodedExtraction>({
    name: "parse",
    member: { worker: assetUrl("src/index/worker.ts") },
    size,
    affinity: (job) => job.language,
    // A file's bytes move to the worker (no copy left on this thread for its collector).
    transfer: (job) => wholeBuffers([job.bytes]),
    inline: (job) => extractEncoded(job.path, job.bytes, job.language),
  });
  const lean = createLeanPool(size);
  return {
    async extract(path, bytes, language) {
      if (lean && !lean.failure && isLeanFile(path, bytes, language)) {
        try {
          return await lean.run({ path, bytes, language });
        } catch {
          // The process died or did not start: this file (and, once it failed, the next) parse here.
        }
      }
      return await workers.run({ path, bytes, language });
    },
    async recycle() {
      await Promise.all([workers.recycle(), lean?.recycle()]);
    },
    async close() {
      await Promise.all([workers.close(), lean?.close()]);
    },
  };
}

/** One worker per core. */
export function defaultPoolSize(): number {
  return Math.max(1, Math.min(8, navigator.hardwareConcurrency ?? 2));
}
