/**
 * Worker of the parse-only floor of `bench/index.ts`: parses a file with tree-sitter and
 * throws the tree away (mode `parse`), or runs the whole parse stage (`parseSource`: tree,
 * queries, definitions, references; mode `queries`). Nothing is chunked or stored.
 *
 * @module
 */

/// <reference lib="deno.worker" />

import { languageById } from "../src/parse/languages.ts";
import { loadGrammar, parseSource } from "../src/parse/parser.ts";
import { type JobScope, serveJobs } from "../src/util/worker_pool.ts";

/** One file of the floor. */
export interface FloorJob {
  path: string;
  bytes: Uint8Array;
  language: string;
  mode: "parse" | "queries";
}

const decoder = new TextDecoder();

serveJobs(globalThis as unknown as JobScope, async (job: FloorJob): Promise<number> => {
  const text = decoder.decode(job.bytes);
  if (job.mode === "queries") return (await parseSource(job.path, text, job.language)).lines;
  const info = languageById(job.language);
  if (!info?.grammar || info.text) return 0;
  const g = await loadGrammar(info.id);
  g.parser.parse(text)?.delete();
  return 1;
});
