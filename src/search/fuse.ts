/**
 * Stage 2 of a ranked search: fuse. Each side's candidates (`retrieve.ts`) become one score
 * per row: a weighted sum of max-normalised scores (or reciprocal ranks) plus a boost for
 * the share of a symbol's name the query covers, times the chunk kind's and the file's
 * factors; where no second stage follows, the score is calibrated into the chance of an
 * answer. Reads only its arguments (a search worker runs it too).
 *
 * @module
 */

import type { Bm25Params } from "./bm25.ts";
import { slot } from "../util/memo.ts";
import type { ChunkTable } from "./table.ts";
import type { RerankModel } from "./rerank.ts";
import type { Hit } from "./vectors.ts";
import type { ExactWeights } from "./exact.ts";
import type { Retrieved } from "./retrieve.ts";

/** How the two sides are fused; the defaults (`pipeline.ts`) are tuned by `bench/search_quality.ts`. */
export interface FusionParams {
  /** `weighted`: w·lexical + (1−w)·dense, each max-normalised; `rrf`: reciprocal ranks. */
  method: "weighted" | "rrf";
  /** Share of the lexical side in `weighted`. */
  lexicalWeight: number;
  /** Added (then rescaled) for the share of a symbol's name the query covers. */
  nameBoost: number;
  /** Name boost when only the lexical side answers (default 0.1). */
  lexicalNameBoost?: number;
  /** The k of reciprocal-rank fusion. */
  rrfK: number;
  /** Candidates taken from each side before fusing. */
  candidates: number;
  /**
   * Score factor per chunk kind (`""`: chunks named after no definition: imports, module
   * glue). Such chunks and type-only declarations share words with many questions but
   * rarely answer one; kinds not listed keep 1.
   */
  kindWeights?: Readonly<Record<string, number>>;
  /** Second stage of hybrid search (`rerank.ts`); null: the fused order is final. */
  rerank?: RerankModel | null;
  /**
   * Logistic curves (scale, bias) over the fused score of lexical mode (and of hybrid mode
   * before any vector) and of dense mode, which make it the chance that a result is the
   * answer — the scale of the second stage's scores — so a `threshold` means the same in
   * every ranked mode (`bench/search_calibrate.ts`); null: the fused scores themselves.
   */
  calibration?: Readonly<Record<"lexical" | "dense", readonly [number, number]>> | null;
  bm25: Bm25Params;
  /** The exact forms' evidence after fusion (`exact.ts`); null: not counted. */
  exact?: ExactWeights | null;
}

/** The first stage's fused score, kind and scope factors applied. */
export function fuseFirst(r: Retrieved, fusion: FusionParams): Map<number, number> {
  const scored = fuseSides(r, fusion);
  const factor = kindFactors(r.table, fusion.kindWeights ?? {});
  for (const [row, s] of scored) {
    scored.set(row, s * factor[row] * r.fileWeight[r.table.fileOfRow[row]]);
  }
  return scored;
}

/** A table's kind factors, for the kind weights last asked. */
const KIND_FACTORS = slot(
  "kind factors",
  (_: ChunkTable) => ({ key: "", factor: null as Float32Array | null }),
);

/**
 * Per row, the factor of its chunk's kind, made once per table (and kind weights): reading
 * the kind of ~400 scattered chunk records per query cost ~0.2 ms of a search.
 */
function kindFactors(table: ChunkTable, weights: Readonly<Record<string, number>>): Float32Array {
  const key = JSON.stringify(weights);
  const held = table.memo.get(KIND_FACTORS);
  if (held.factor && held.key === key) return held.factor;
  const factor = new Float32Array(table.chunks.length);
  table.chunks.forEach((c, row) => {
    const kind = c.kind ?? "";
    // Own keys only: `constructor` is a kind and a key every object inherits.
    factor[row] = Object.hasOwn(weights, kind) ? weights[kind] : 1;
  });
  held.key = key;
  held.factor = factor;
  return factor;
}

function fuseSides(r: Retrieved, fusion: FusionParams): Map<number, number> {
  const { lex, lexTop, dense, denseTop, nameCover, mode } = r;
  const scored = new Map<number, number>();
  const boost = (row: number, s: number) =>
    (s + fusion.nameBoost * nameCover(row)) / (1 + fusion.nameBoost);
  if (mode === "lexical" || (mode === "hybrid" && denseTop.length === 0)) {
    // Lexical alone measured best with a smaller name boost than fusion (0.1 vs 0.2).
    const b = fusion.lexicalNameBoost ?? 0.1;
    for (const h of lexTop) {
      const s = r.lexMax > 0 ? h.score / r.lexMax : 0;
      scored.set(h.row, (s + b * nameCover(h.row)) / (1 + b));
    }
  } else if (mode === "dense") {
    for (const h of denseTop) scored.set(h.row, Math.max(0, h.score));
  } else if (fusion.method === "rrf") {
    const add = (hits: Hit[]) =>
      hits.forEach((h, rank) => {
        scored.set(h.row, (scored.get(h.row) ?? 0) + 1 / (fusion.rrfK + rank + 1));
      });
    add(lexTop);
    add(denseTop);
    const max = 2 / (fusion.rrfK + 1);
    for (const [row, s] of scored) scored.set(row, boost(row, s / max));
  } else {
    const topLex = lexTop[0]?.score ?? 0;
    const topDense = Math.max(denseTop[0]?.score ?? 0, 1e-9);
    const w = fusion.lexicalWeight;
    const rows = new Set([...lexTop.map((h) => h.row), ...denseTop.map((h) => h.row)]);
    for (const row of rows) {
      const l = topLex > 0 && lex ? lex[row] / topLex : 0;
      const dv = dense ? dense[row] : NaN;
      // A chunk without a vector yet is judged by its lexical side alone.
      const d = Number.isNaN(dv) ? l : Math.max(0, dv) / topDense;
      scored.set(row, boost(row, w * l + (1 - w) * d));
    }
  }
  return scored;
}

/** A first-stage score as the chance of an answer, where the mode has a curve. */
export function calibrated(
  r: Retrieved,
  fused: Map<number, number>,
  curves: FusionParams["calibration"],
): Map<number, number> {
  const curve = !curves
    ? undefined
    : r.mode === "dense"
    ? curves.dense
    : r.mode === "lexical" || !r.dense
    ? curves.lexical
    : undefined;
  if (!curve) return fused;
  const [scale, bias] = curve;
  for (const [row, s] of fused) fused.set(row, 1 / (1 + Math.exp(-(scale * s + bias))));
  return fused;
}
