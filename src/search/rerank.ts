/**
 * Second stage of the ranked search: the fused list's best candidates are re-scored by a
 * linear model over features computed in microseconds (each side's normalised score and
 * rank, the query's lexical coverage, name and path matches, chunk kind and length), then
 * mapped to [0, 1] by a fitted logistic curve, so that a score reads as how likely the
 * result is the answer. The weights are learned by `bench/search_rerank.ts` on queries of
 * the tuning packages that the evaluation does not use.
 *
 * @module
 */

import type { ChunkTable } from "./table.ts";
import { codeTokens } from "../util/tokens.ts";

/** Feature names, in vector order. */
export const RERANK_FEATURES = [
  "fused",
  "lexical",
  "dense",
  "cosine",
  "name",
  "path",
  "kind_function",
  "kind_type",
  "kind_none",
  "docs",
  "lines",
  "lexical_rank",
  "dense_rank",
  "lexical_x_coverage",
  "dense_x_uncovered",
] as const;

/** A learned model: one weight per feature, and the logistic calibration of its score. */
export interface RerankModel {
  weights: readonly number[];
  scale: number;
  bias: number;
  /** How many fused candidates are re-scored (at least twice the results asked for). */
  depth: number;
}

/** What the features of one query's candidates need, computed once per query. */
export interface RerankInput {
  table: ChunkTable;
  lex: Float32Array | null;
  dense: Float32Array | null;
  lexRank: ReadonlyMap<number, number>;
  denseRank: ReadonlyMap<number, number>;
  topLex: number;
  topDense: number;
  /** The best lexical score over the largest possible (how well the words are covered). */
  coverage: number;
  terms: ReadonlySet<string>;
  nameCover: (row: number) => number;
  isDocs: (row: number) => boolean;
}

const FUNCTION_KINDS = new Set(["function", "method", "constructor"]);
const TYPE_KINDS = new Set(["class", "struct", "trait", "enum", "interface", "type"]);
const pathTerms = new WeakMap<ChunkTable, Array<ReadonlySet<string> | undefined>>();

function pathCover(input: RerankInput, row: number): number {
  if (input.terms.size === 0) return 0;
  const fi = input.table.fileOfRow[row];
  let all = pathTerms.get(input.table);
  if (!all) pathTerms.set(input.table, all = new Array(input.table.files.length));
  let set = all[fi];
  if (!set) {
    const path = input.table.files[fi].path.replace(/\.[^./]+$/, "");
    set = all[fi] = new Set(codeTokens(path));
  }
  let hit = 0;
  for (const t of input.terms) if (set.has(t)) hit++;
  return hit / input.terms.size;
}

/** The feature vector of one candidate (`fused`: its first-stage score). */
export function rerankFeatures(input: RerankInput, row: number, fused: number): number[] {
  const c = input.table.chunks[row];
  const l = input.topLex > 0 && input.lex ? input.lex[row] / input.topLex : 0;
  const cos = input.dense ? input.dense[row] : NaN;
  const d = Number.isNaN(cos) ? l : Math.max(0, cos) / Math.max(input.topDense, 1e-9);
  const lr = input.lexRank.get(row);
  const dr = input.denseRank.get(row);
  const lines = c.endLine - c.startLine + 1;
  return [
    fused,
    l,
    d,
    Number.isNaN(cos) ? 0 : cos,
    input.nameCover(row),
    pathCover(input, row),
    c.kind !== null && FUNCTION_KINDS.has(c.kind) ? 1 : 0,
    c.kind !== null && TYPE_KINDS.has(c.kind) ? 1 : 0,
    c.kind === null ? 1 : 0,
    input.isDocs(row) ? 1 : 0,
    Math.log2(1 + lines) / 6,
    lr === undefined ? 0 : 1 / (1 + lr),
    dr === undefined ? 0 : 1 / (1 + dr),
    l * input.coverage,
    d * (1 - input.coverage),
  ];
}

/** The model's raw score of a feature vector. */
export function rerankScore(model: RerankModel, x: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += model.weights[i] * x[i];
  return s;
}

/**
 * Re-scores the `depth` best of `fused` (rows past it are dropped: they would rank below
 * every re-scored row anyway at these depths) into calibrated scores in [0, 1].
 */
export function rerank(
  model: RerankModel,
  input: RerankInput,
  fused: Map<number, number>,
  depth: number,
): Map<number, number> {
  const top = [...fused].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, depth);
  const out = new Map<number, number>();
  for (const [row, s] of top) {
    const raw = rerankScore(model, rerankFeatures(input, row, s));
    out.set(row, 1 / (1 + Math.exp(-(model.scale * raw + model.bias))));
  }
  return out;
}

/**
 * Learned by `bench/search_rerank.ts` on 1,659 queries of the tuning packages in six
 * languages (none of them evaluated on).
 */
export const DEFAULT_RERANK: RerankModel = {
  weights: [
    2.527,
    2.158,
    1.183,
    1.049,
    1.119,
    1.492,
    2.21,
    -1.095,
    -1.067,
    0,
    -0.24,
    0.441,
    0.617,
    2.215,
    0.467,
  ],
  scale: 0.551,
  bias: -7.615,
  depth: 20,
};
