/**
 * The BM25F parameters: what the lexical index (`lexical.ts`) scores with and its builder
 * (`lexical_build.ts`) records, in a module of their own so that neither imports the other
 * for them.
 *
 * @module
 */

/** BM25F parameters. */
export interface Bm25Params {
  k1: number;
  /** Weight per field: name, signature, doc, body, path. */
  weights: readonly number[];
  /** Length normalisation per field (0: none, 1: full). */
  b: readonly number[];
}

/**
 * Tuned by coordinate search on the development half of `bench/search_quality.ts` (Python
 * standard library), except the doc weight: that evaluation removes the answers' doc
 * comments, so it cannot judge doc matches fairly; the doc field keeps the body's weight.
 */
export const DEFAULT_BM25: Bm25Params = {
  k1: 2,
  weights: [1.5, 3, 1, 1, 1.5],
  b: [0.9, 0.9, 0.9, 0.9, 0.6],
};
