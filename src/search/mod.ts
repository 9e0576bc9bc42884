/**
 * Search: code-aware lexical (BM25F) and vector search, fused. The front door of
 * `src/search/`.
 *
 * @example
 * ```ts
 * import { hybridSearch } from "./src/search/mod.ts";
 * const hits = await hybridSearch(project, "parse the config file", { top_k: 5 });
 * ```
 *
 * @module
 */

export {
  clearQueryVectorCache,
  DEFAULT_FUSION,
  fuse,
  type FusionParams,
  hybridSearch,
  MAX_QUERY_BYTES,
  retrieve,
  type Retrieved,
  type SearchMode,
  type SearchOptions,
  type SearchOutcome,
  searchProject,
  validateSearch,
} from "./hybrid.ts";
export { bestSnippet, present, SNIPPET_LINES } from "./present.ts";
export {
  type ChunkDocument,
  type Embedder,
  EMBEDDER_CHOICES,
  type EmbedderProvider,
  type ResolvedEmbedder,
} from "./embedder.ts";
export { PROVIDERS, resolveEmbedder } from "./providers.ts";
export { localModels, modelsDir, pullModel } from "./models.ts";
export { codeTokens, queryTokens, stem, STOP_WORDS } from "../util/tokens.ts";
export { FlatVectorIndex, type Quantization } from "./vectors.ts";
export type { VectorProgress } from "./vector_sync.ts";
