/**
 * What a search is asked and what it tells of its vectors: the types every stage of search
 * reads (`hybrid.ts` gathers the sources, the stages of `pipeline.ts` retrieve, fuse, rerank
 * and present, `search_pool.ts` runs them on workers, `vector_sync.ts` fills the vectors), in
 * a module none of them owns, so that they import it and not each other.
 *
 * @module
 */

import type { IndexProgress } from "../index/indexer.ts";
import type { Project } from "../project/project.ts";
import { slot } from "../util/memo.ts";
import type { SearchScope } from "./scope.ts";

/** Which side(s) of the ranked search to use. */
export type RankedMode = "hybrid" | "lexical" | "dense";

/** Ranked modes, and `exact`/`regex`: every match with its line and column (`grep.ts`). */
export type SearchMode = RankedMode | "exact" | "regex";

/** The modes, as the tool lists them. */
export const SEARCH_MODES: readonly SearchMode[] = ["hybrid", "lexical", "dense", "exact", "regex"];

/** The search options (wire names, as the tool takes them). */
export interface SearchOptions {
  /** How many results, 1–100 (default 10). */
  top_k?: number;
  /** Minimum score in [0, 1] (default 0). */
  threshold?: number;
  /** Only files under this folder (or starting with this path). */
  path_prefix?: string;
  /** Only files of this language (`python`, `typescript`, …). */
  language?: string;
  /** `hybrid` (default), `lexical`, `dense`, `exact` or `regex`. */
  mode?: SearchMode;
  /** `code`, `docs`, `tests` or `all` (default: code, and docs ranked below code). */
  scope?: SearchScope;
  /** Also search test files (default false; scope `tests` and `all` include them). */
  include_tests?: boolean;
  /** Wait until every chunk has its vector before answering (default: use what is there). */
  wait_for_vectors?: boolean;
}

/** How far the vectors of the current generation are. */
export interface VectorProgress {
  /** The embedder's id (`use-lite@0.2.0`, `transformers:<folder>`…), or the choice made. */
  embedder: string;
  dimensions: number;
  /** Chunks with a vector. */
  done: number;
  /** Chunks of the current generation. */
  total: number;
  /** Chunks the model embedded in the last run (the others came from the cache). */
  embedded: number;
  /**
   * `off` (embedder `none`), `idle` (not started), `embedding`, `complete` or `error`.
   */
  state: "off" | "idle" | "embedding" | "complete" | "error";
  error?: string;
}

/** How a project's vectors are made and who hears of their progress. */
export interface VectorOptions {
  /**
   * The embedder choice: `auto` (default, or `$CODECTX_EMBEDDER`), `codectx-code`,
   * `transformers:<model-id-or-folder>`, `use-lite`, `none`.
   */
  embedder?: string;
  /** Progress of embedding, as `embed` phase events. */
  onProgress?: (p: IndexProgress) => void;
}

/**
 * The vector options of whoever opened the project (the service), kept until the vectors are
 * first made — by whoever asks first — so that a process that never searches does not load
 * their code (issue 34).
 */
export const VECTOR_CHOICE = slot<Project, VectorOptions>("vector choice", () => ({}));
