/**
 * Warming a server's search before its first query: the chunk table, the BM25F index and,
 * once the vectors are in memory, the query embedder are built in the background after
 * indexing, so that the first `semantic_search` costs what the next ones do.
 *
 * @module
 */

import type { Project } from "../project/project.ts";
import { searchProject } from "./hybrid.ts";
import { projectVectors } from "./vector_sync.ts";
import { inProcessEmbedder, resolveEmbedder } from "./providers.ts";
import { warmNames } from "./name_index.ts";
import { rowTraitsInSlices } from "./rerank_names.ts";
import { chunkTable } from "./table.ts";

/** Symbols above which a server builds its name look-ups at start (the kernel: 2.96 M). */
const LARGE_NAMES = 500_000;

/**
 * Loads the query embedder while the vectors load (so that it is in memory when they are
 * complete, not after), runs one lexical search (chunk table, lexical index, symbols),
 * builds a large index's name look-ups, then, when the vectors are complete, one hybrid
 * search. Never throws; a failure here
 * only means the first real query does the work.
 *
 * @example
 * ```ts
 * void warmSearch(project); // after the first indexing run of a server
 * ```
 */
export async function warmSearch(project: Project): Promise<void> {
  try {
    const sync = projectVectors(project);
    const model = sync.spec === "none" ? null : resolveEmbedder(sync.spec)
      .then((choice) => (choice ? inProcessEmbedder(choice) : null))
      .catch(() => null);
    // The second stage's row traits (1–2 s of the stdlib's first table, in slices), made
    // from the start while the search warms and the vectors load; not awaited: the hybrid
    // warm-up below must come as soon as the vectors are complete (the first query comes
    // then), and a query before the traits reads its candidates' own (the search workers
    // get their snapshot once the traits are made).
    // Only a search on vectors reads them (none on the kernel's bench: 1.4 M rows, ~10 s).
    if (sync.spec !== "none") void chunkTable(project).then(rowTraitsInSlices).catch(() => null);
    await searchProject(project, "warm up the search", { top_k: 1, mode: "lexical" });
    // A large index's name look-ups: search_symbols' name index and the resolver's exact
    // names (on the Linux kernel the first search_symbols paid ~2.5 s for them).
    const index = await project.index();
    if (index.columns.count > LARGE_NAMES) {
      warmNames(index.columns);
      index.symbolsBy("name", "exact", (v) => v, "");
    }
    const progress = await sync.settle();
    await model;
    if (progress.state === "complete") {
      await searchProject(project, "warm up the search", { top_k: 1, mode: "hybrid" });
    }
  } catch {
    // the first query will build what is missing, and report its own error
  }
}
