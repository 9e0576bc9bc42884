/**
 * The index figures health endpoints show: state and counts of the committed generation,
 * whether the root is there and whether edits are seen.
 *
 * @module
 */

import { slot } from "../util/memo.ts";
import { summarize } from "../index/indexer.ts";
import type { IndexState, Project } from "../project/project.ts";
import type { VectorSync } from "../search/vector_sync.ts";
import type { WatchStatus } from "./watch.ts";

/** What `/health` tells about the index. */
export interface IndexStatus {
  /** `root_missing` while the project's root folder is gone (deleted or moved). */
  state: IndexState | "root_missing";
  generation: number | null;
  files: number;
  chunks: number;
  symbols: number;
  /** Chunks with a vector (filled in the background behind lexical search). */
  vectors: number;
  /** Chunks that will have one when embedding is complete. */
  vectors_total: number;
  /** `off`, `idle`, `embedding`, `complete` or `error`. */
  vectors_state: string;
  embedder: string;
  languages: Record<string, number>;
  last_indexed_at: string | null;
  /** Whether edits to the tree are seen: a watcher watches every folder of the project. */
  watching: boolean;
  /** Why not, when `watching` is false (watching off, the root gone, a limit of the system). */
  watch_reason: string | null;
}

interface Counts {
  files: number;
  chunks: number;
  symbols: number;
  languages: Record<string, number>;
  createdAt: string;
}

/** The counts of the generation last asked about (read from its manifest once). */
const COUNTS = slot(
  "health counts",
  (_: Project) => ({ generation: -1, counts: null as Counts | null }),
);

/**
 * How old a read of the current generation `/health` accepts: under load every store read
 * waits its turn behind the requests in flight, and `/health` must answer at once. This
 * process's own runs are seen at once (the project forgets its read after each).
 */
const HEALTH_GENERATION_AGE_MS = 1000;

/**
 * State and counts of a project's index. Counts come from the committed manifest (read
 * once per generation), so they are right also before this process has indexed. In the
 * steady state nothing is read from the store (`Project.currentGeneration`).
 */
export async function indexStatus(
  project: Project,
  vectors: VectorSync,
  watch: WatchStatus,
): Promise<IndexStatus> {
  const generation = await project.currentGeneration(HEALTH_GENERATION_AGE_MS);
  // One stat of the root: a deleted project is said at once, watched or not.
  const state = project.rootMissing
    ? "root_missing"
    : project.indexing
    ? "indexing"
    : generation === null
    ? "empty"
    : "ready";
  let counts: Counts | null = null;
  if (generation !== null) {
    const hit = project.scope.get(COUNTS);
    if (hit.generation === generation) counts = hit.counts;
    else {
      const manifest = await project.store.readCurrent();
      if (manifest) {
        const r = summarize(manifest.files, {
          generation: manifest.generation,
          changed: 0,
          added: 0,
          modified: 0,
          deleted: 0,
          parsed: 0,
          elapsedMs: manifest.elapsedMs,
        });
        counts = {
          files: r.files,
          chunks: r.chunks,
          symbols: r.symbols,
          languages: r.languages,
          createdAt: manifest.createdAt,
        };
        hit.generation = manifest.generation;
        hit.counts = counts;
      }
    }
  }
  // Asking is enough to start the background embedding when it has not started yet.
  if (vectors.progress().state === "idle") vectors.start();
  const vec = vectors.progress();
  return {
    state,
    generation,
    files: counts?.files ?? 0,
    chunks: counts?.chunks ?? 0,
    symbols: counts?.symbols ?? 0,
    vectors: vec.done,
    vectors_total: vec.total,
    vectors_state: vec.state,
    embedder: vec.embedder,
    languages: counts?.languages ?? {},
    last_indexed_at: project.lastIndexedAt ?? counts?.createdAt ?? null,
    watching: watch.watching,
    watch_reason: watch.reason,
  };
}
