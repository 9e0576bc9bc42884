/**
 * A pool of parsing workers, one per core, so indexing uses the whole machine.
 *
 * @module
 */

import { assetUrl } from "../util/assets.ts";
import { createWorkerPool } from "../util/worker_pool.ts";
import { extract, type Extraction } from "./extract.ts";

/** Parses files in parallel; `close()` ends the workers. */
export interface ParsePool {
  extract(path: string, text: string, language: string): Promise<Extraction>;
  close(): void;
}

/** One file to parse, as sent to `worker.ts`. */
export interface ParseJob {
  path: string;
  text: string;
  language: string;
}

/**
 * A pool of `size` workers; with size 0 (or when workers cannot start) everything runs
 * on the calling thread. A worker that already compiled a file's grammar is preferred
 * (compiling one can take a second).
 */
export function createParsePool(size = defaultPoolSize()): ParsePool {
  const pool = createWorkerPool<ParseJob, Extraction>({
    url: assetUrl("src/index/worker.ts"),
    size,
    name: "parse",
    affinity: (job) => job.language,
  });
  if (!pool) return { extract, close() {} };
  return {
    extract: (path, text, language) => pool.run({ path, text, language }),
    close: () => pool.close(),
  };
}

/** One worker per core. */
export function defaultPoolSize(): number {
  return Math.max(1, Math.min(8, navigator.hardwareConcurrency ?? 2));
}
