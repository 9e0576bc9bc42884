/**
 * Warming a server's search before its first query: the chunk table, the BM25F index and,
 * once the vectors are in memory, the query embedder are built in the background after
 * indexing, so that the first `semantic_search` costs what the next ones do.
 *
 * @module
 */

import type { Project } from "../index/project.ts";
import { searchProject } from "./hybrid.ts";
import { projectVectors } from "./vector_sync.ts";
import { inProcessEmbedder, resolveEmbedder } from "./providers.ts";

/**
 * Loads the query embedder while the vectors load (so that it is in memory when they are
 * complete, not after), runs one lexical search (chunk table, lexical index, symbols),
 * then, when the vectors are complete, one hybrid search. Never throws; a failure here
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
    await searchProject(project, "warm up the search", { top_k: 1, mode: "lexical" });
    const progress = await sync.settle();
    await model;
    if (progress.state === "complete") {
      await searchProject(project, "warm up the search", { top_k: 1, mode: "hybrid" });
    }
  } catch {
    // the first query will build what is missing, and report its own error
  }
}
