/**
 * A ranked search as named stages, each a module that reads the analysed question:
 *
 * ```
 * analyse (query.ts) → retrieve (retrieve.ts) → fuse (fuse.ts) → rerank (rerank.ts)
 *   → exact forms (exact.ts) → present (present.ts)
 * ```
 *
 * `rankQuery` runs retrieve → fuse → rerank over a query's sources (what a search worker
 * runs, `search_worker.ts`); `presentRanked` the last two on the main thread. `hybrid.ts`
 * gathers the sources of a project and runs the whole.
 *
 * @module
 */

import type { WireSearchItem } from "./item.ts";
import { DEFAULT_BM25 } from "./bm25.ts";
import { DEFAULT_RERANK, rerankRetrieved } from "./rerank.ts";
import { DEFAULT_EXACT, memberPreference, preferExact } from "./exact.ts";
import { calibrated, fuseFirst, type FusionParams } from "./fuse.ts";
import { type Retrieved, retrieveFrom, type RetrieveSources } from "./retrieve.ts";
import { present, type Presentable } from "./present.ts";
import { fileClasses } from "./scope.ts";
import type { AnalysedQuery } from "./query.ts";
import type { RankedMode, SearchOptions } from "./options.ts";

/** Tuned on the development half of the evaluation set (see `bench/search_quality.ts`). */
export const DEFAULT_FUSION: FusionParams = {
  method: "weighted",
  lexicalWeight: 0.7,
  nameBoost: 0.2,
  rrfK: 60,
  candidates: 200,
  kindWeights: { "": 0.5, type: 0.6, interface: 0.6 },
  rerank: DEFAULT_RERANK,
  // `bench/search_calibrate.ts` on the tuning packages' training queries (8,991 and 9,000
  // results of the evaluated ones then read as chances within 0.01 in every band to 0.3).
  calibration: { lexical: [4.324, -4.142], dense: [5.764, -5.616] },
  bm25: DEFAULT_BM25,
  exact: DEFAULT_EXACT,
};

/**
 * Fuse, then the second stage: one score in [0, 1] per candidate row; in hybrid mode with a
 * model, the fused list's best `depth` candidates re-scored by it (the others dropped).
 */
export function fuse(
  r: Retrieved,
  fusion: FusionParams = DEFAULT_FUSION,
  depth = 50,
): Map<number, number> {
  const fused = fuseFirst(r, fusion);
  const model = fusion.rerank;
  if (!model || r.mode !== "hybrid" || !r.dense) return calibrated(r, fused, fusion.calibration);
  return rerankRetrieved(model, r, fused, depth);
}

/** Retrieve → fuse → rerank over a query's sources: the fused scores, best `depth` kept. */
export function rankQuery(
  src: RetrieveSources,
  query: AnalysedQuery,
  opts: SearchOptions = {},
  fusion: FusionParams = DEFAULT_FUSION,
  depth = 50,
): Map<number, number> {
  return fuse(retrieveFrom(src, query, opts, fusion.candidates), fusion, depth);
}

/**
 * The last stages of a ranked search: the exact forms' evidence over the fused scores
 * (`exact.ts`), then the items. In lexical mode only the text's evidence (quoted strings,
 * code words) counts: its fusion already boosts names, and the names' evidence on top cost
 * lexical alone on `bench/search_breadth.ts` (pooled ÷ BM25 1.13 → 1.08 in Python, 1.26 →
 * 1.17 in JavaScript) while it lifts hybrid and dense.
 */
export function presentRanked(
  query: AnalysedQuery,
  r: Presentable,
  fused: Map<number, number>,
  fusion: FusionParams = DEFAULT_FUSION,
  k = 10,
  threshold = 0,
  mode: RankedMode = "hybrid",
): WireSearchItem[] {
  if (!fusion.exact) return present(r, fused, k, threshold);
  const w = mode === "lexical"
    ? {
      ...fusion.exact,
      form: 0,
      number: 0,
      object: 0,
      member: 0,
      action: 0,
      contract: 0,
      refers: 0,
      referred: 0,
      relation: 0,
      holder: 0,
      letters: 0,
      reverse: 0,
      creates: 0,
      pointed: 0,
    }
    : fusion.exact;
  const classes = fileClasses(r.table);
  const isDocs = (row: number) => classes[r.table.fileOfRow[row]] === "docs";
  const ranked = preferExact(r.table, fused, query.forms, r.termWeight, w, isDocs);
  return present({ ...r, byName: memberPreference(query.forms, w) }, ranked, k, threshold);
}
