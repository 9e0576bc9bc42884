/**
 * A worker that builds `lexical.bin` for a large index (`writeLexicalFile` starts it): the
 * build's vocabulary and arrays live in this worker's heap, given back when it ends, and the
 * thread that started it is free meanwhile.
 *
 * @module
 */

/// <reference lib="deno.worker" />

import { buildLexicalFile } from "./lexical_cache.ts";
import type { Bm25Params } from "./lexical.ts";
import type { TermCounts, TermsFile } from "./lexical_build.ts";

/**
 * What the worker is asked: the store's folder, the files, the parameters, the build key,
 * and the first pass when the indexing run made it.
 */
interface Job {
  dir: string;
  files: TermsFile[];
  params: Bm25Params;
  key: string;
  counted?: TermCounts;
}

self.onmessage = async (e: MessageEvent<Job>) => {
  const { dir, files, params, key, counted } = e.data;
  try {
    await buildLexicalFile(dir, files, params, key, counted);
    self.postMessage({ ok: true });
  } catch (err) {
    self.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
  }
};
