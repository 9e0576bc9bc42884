/**
 * Second stage of the ranked search: the fused list's best candidates are re-scored by a
 * small model (linear terms plus one layer of tanh units) over features computed in
 * microseconds: each side's normalised score, rank and z-score, the query's lexical
 * coverage and the share of its terms each candidate holds, name and path matches (both
 * ways: the name's words in the query, the query's words in the name), chunk kind and
 * length, per-language copies of the two sides' scores, the candidate's file among the
 * candidates, and its own name and signature against the question (`rerank_names.ts`: the
 * question's first word starting the name, internal definitions, parameters' words). The
 * score is then mapped to [0, 1] by a fitted logistic curve, so that it reads as how likely
 * the result is the answer. Learned by `bench/search_rerank.ts` on queries of the tuning
 * packages that the evaluation does not use.
 *
 * @module
 */

import type { ChunkTable } from "./table.ts";
import { nameFeatures } from "./rerank_names.ts";
import { FUNCTION_KINDS } from "../types.ts";
import { codeTokens } from "../util/tokens.ts";

/**
 * Languages whose lexical and dense sides get their own weights (the ones the model is
 * trained on); any other language uses the shared weights alone.
 */
export const RERANK_LANGUAGES = [
  "python",
  "go",
  "rust",
  "javascript",
  "typescript",
  "java",
] as const;

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
  "term_cover",
  "term_cover_all",
  "lexical_x_dense",
  "lexical_z",
  "dense_z",
  "lexical_x_long",
  "dense_x_long",
  "query_in_name",
  "name_x_dense",
  ...RERANK_LANGUAGES.flatMap((l) => [`lang_lexical_${l}`, `lang_dense_${l}`]),
  "file_lexical",
  "file_dense",
  "file_best_lexical",
  "file_best_dense",
  "file_candidates",
  "name_first",
  "internal",
  "params",
  "name_cosine",
] as const;

/**
 * A learned model: one weight per feature, optionally one hidden layer of tanh units (its
 * outputs weighted and added), and the logistic calibration of the score.
 */
export interface RerankModel {
  weights: readonly number[];
  /** `w`: units × features, row-major; `b` and `out` per unit. */
  hidden?: { w: readonly number[]; b: readonly number[]; out: readonly number[] };
  /** How many features the model was learned with (later ones get no weight). */
  features?: number;
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
  /** Per row, the summed idf of the distinct query terms it contains (null: none). */
  cover: Float32Array | null;
  /** The summed idf of the query's known terms (`cover`'s largest value). */
  coverMax: number;
  /** Mean and standard deviation of each side's candidate scores (z-scores). */
  lexStats: readonly [number, number];
  denseStats: readonly [number, number];
  terms: ReadonlySet<string>;
  nameCover: (row: number) => number;
  /** Share of the query's (idf-weighted) terms that a row's symbol name holds. */
  queryInName: (row: number) => number;
  /** The query vector's cosine with the row's own name (`name_vectors.ts`; 0: none). */
  nameCosine: (row: number) => number;
  isDocs: (row: number) => boolean;
  /**
   * Per file (index in the table) among each side's candidates: its best lexical and dense
   * scores, and how many of its rows are candidates of either side.
   */
  fileLex: ReadonlyMap<number, number>;
  fileDense: ReadonlyMap<number, number>;
  fileCount: ReadonlyMap<number, number>;
}

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
  const tc = input.cover && input.coverMax > 0 ? input.cover[row] / input.coverMax : 0;
  const z = (x: number, [mean, sd]: readonly [number, number]) =>
    sd > 0 ? Math.max(-3, Math.min(5, (x - mean) / sd)) / 3 : 0;
  const lz = input.lex ? z(input.lex[row], input.lexStats) : 0;
  const dz = Number.isNaN(cos) ? lz : z(cos, input.denseStats);
  const long = Math.min(1, input.terms.size / 8);
  const inName = input.queryInName(row);
  const lang = input.table.files[input.table.fileOfRow[row]].language;
  const perLanguage: number[] = [];
  for (const x of RERANK_LANGUAGES) perLanguage.push(lang === x ? l : 0, lang === x ? d : 0);
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
    tc,
    tc > 0.999 ? 1 : 0,
    l * d,
    lz,
    dz,
    l * long,
    d * long,
    inName,
    inName * d,
    ...perLanguage,
    ...fileFeatures(input, row, l, d),
    ...nameFeatures(input.table, input.terms, row),
    input.nameCosine(row),
  ];
}

/**
 * The file around a candidate: how well its best chunk matches on each side (a file that
 * answers the question holds more than one chunk that says so), whether the candidate is
 * that best chunk, and how many of its chunks are candidates.
 */
function fileFeatures(input: RerankInput, row: number, l: number, d: number): number[] {
  const fi = input.table.fileOfRow[row];
  const fl = input.topLex > 0 ? (input.fileLex.get(fi) ?? 0) / input.topLex : 0;
  const cos = input.fileDense.get(fi);
  const fd = cos === undefined ? fl : Math.max(0, cos) / Math.max(input.topDense, 1e-9);
  return [
    fl,
    fd,
    fl > 0 && l >= fl - 1e-6 ? 1 : 0,
    fd > 0 && d >= fd - 1e-6 ? 1 : 0,
    Math.log2(1 + (input.fileCount.get(fi) ?? 0)) / 6,
  ];
}

/** The model's raw score of a feature vector. */
export function rerankScore(model: RerankModel, x: readonly number[]): number {
  let s = 0;
  // A model learned before a feature was added gives it no weight.
  for (let i = 0; i < x.length; i++) s += (model.weights[i] ?? 0) * x[i];
  const h = model.hidden;
  if (!h) return s;
  const f = model.features ?? model.weights.length;
  const n = Math.min(f, x.length);
  for (let k = 0; k < h.out.length; k++) {
    let z = h.b[k];
    for (let j = 0; j < n; j++) z += h.w[k * f + j] * x[j];
    s += h.out[k] * Math.tanh(z);
  }
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

/** Numbers written as one space-separated block (compact in the source). */
function numbers(block: string): number[] {
  return block.trim().split(/\s+/).map(Number);
}

/**
 * Learned by `bench/search_rerank.ts --train 600 --variants all:8 --depth 30 --epochs 300 --seed 4242`
 * on 2,586 queries of the tuning packages in six languages (queries past the 150 per
 * language that the evaluation uses; the held-out packages are never opened there), with
 * labels from the member pointing of `members.ts`. The file features (`file_*`) took the
 * tuning set's mean MRR@10 from .430 to .439 (same training without them); the name features
 * (`name_first`, `internal`, `params`; `rerank_names.ts`) from .449 to .457, and the unused
 * tuning queries 750–1,050 from .455 to .468 (three trainings: .455–.457 and .459–.468). The
 * question against the name alone (`name_cosine`, `name_vectors.ts`), three trainings each:
 * the 150 from .456 to .462 (JavaScript .597 to .611), the unused queries .464 → .462, and
 * 600 JavaScript queries of other packages (`search_vs_bm25.ts --sets train`) .525 → .539.
 */
export const DEFAULT_RERANK: RerankModel = {
  weights: numbers(`
  0.531 0.207 0.359 0.362 -0.64 0.166 0.639 -0.193 -0.207 0 0.286 0.042 0.259 0.309 0.167 0.155
  -0.377 0.221 0.386 0.398 0.262 0.411 -0.021 -0.116 0.263 0.562 -0.125 0.032 0.06 0.174 -0.216
  -0.373 -0.392 -0.356 0.459 0.423 0.754 0.245 0.079 0.358 0.359 -0.032 0.256 0.373 0.074
`),
  hidden: {
    w: numbers(`
  0.088 0.2 0.122 0.096 0.8 0.239 0.155 0.372 -0.24 0 -0.625 0.437 0.411 0.132 -0.001 -0.098
  0.134 0.169 -0.107 -0.21 0.362 0.014 -0.888 -0.796 0.533 0.542 -0.373 -0.741 -0.05 0.128 0.17
  -0.121 0.117 0.224 -0.062 0.085 0.284 0.495 -0.005 -0.161 -0.847 0.37 -0.735 -0.249 0.435
  -0.325 0.134 0.385 -0.215 -0.713 0.152 0.749 -0.674 0.352 0 0.537 -0.095 0.018 0.023 -0.036
  -0.142 0.026 0.196 0.24 0.033 -0.331 -0.527 0.199 0.236 0.007 0.099 0.085 0.371 0.283 0.118
  0.357 -0.024 -0.406 -0.474 -0.218 0.292 0.548 0.588 0.423 0.083 -1.223 0.176 -0.194 -0.974
  -0.068 0.383 -0.289 0.276 -0.417 3.28 -0.339 -0.584 0.811 -0.432 0 -0.247 -0.038 0.287 0.571
  -0.098 -0.077 0.107 0.186 0.102 -0.107 -0.093 0.082 -0.598 -0.594 0.243 -0.245 0.196 0.611
  -0.342 0.171 -0.1 -0.176 0.032 -0.169 -0.345 0.169 -0.12 0.105 0.069 -0.089 -0.314 -0.092
  0.086 -0.12 0.544 -0.105 -0.247 -0.047 -0.123 -0.369 -0.326 0.494 -0.537 0.195 0 0.202 0.11
  -0.123 -0.105 -0.014 -0.114 0.458 -0.222 -0.389 0.375 0.442 0.492 -0.007 0.299 0.266 0.502
  0.251 0.111 -0.148 -0.531 -0.179 0.569 -0.06 -0.17 -0.422 -0.53 -0.437 0.428 -0.092 -0.044
  -0.513 0.343 0.799 0.69 0.532 0.379 0.24 0.021 -0.294 0.864 -0.077 -0.613 0.476 0.409 0 0.039
  -0.043 -0.206 -0.583 0.455 -0.191 -0.165 0.085 0.3 0.061 0.031 -0.213 -0.136 0.079 0.004 0.156
  -0.205 -0.369 0.185 -0.004 0.037 -0.463 0.115 0.159 0.063 0.486 -0.334 -0.427 0.328 0.143
  -1.069 -0.72 -0.115 -0.579 0.321 -0.154 -0.209 0.182 0.315 -0.302 0.273 0.11 0.194 -0.322 0
  0.473 0.343 -0.284 0.136 -0.091 -0.221 -0.108 -0.049 -0.015 0.32 0.658 0.437 0.218 0.18 -0.134
  -0.076 -0.301 -0.128 -0.674 -0.394 0.429 0.559 0.231 0.167 0.233 0.111 0.681 -0.096 -0.379
  -0.081 -0.319 -0.288 -0.462 -0.217 0.181 -0.293 -0.264 -0.339 -0.732 -0.22 0.348 -0.472 0.105
  -0.07 0 0.54 -0.075 -0.104 -0.174 0.038 -0.39 0.58 -0.274 0.555 -0.22 -0.041 -0.04 0.922 0.812
  -0.346 -0.091 -0.234 0.082 0.155 -0.083 0.156 -0.051 -0.097 -0.144 0.104 -0.048 -0.169 -0.275
  0.129 0.003 0.26 -0.01 0.632 0.068 1.063 -0.081 -0.327 -0.027 -0.219 0.66 -0.135 -0.564 0.42
  0.174 0 0.906 0.051 0.512 -0.013 -0.167 -0.252 -0.055 -0.169 0.122 -0.364 -0.101 0.166 -0.796
  -0.08 -1.128 -0.813 0.165 0.479 0.451 0.016 0.542 0.406 -0.298 -0.285 -0.084 0.253 -0.018
  -0.027 -0.134 -0.112 0.234 0.024 -0.293 -1.033 -0.496
`),
    b: numbers(`0.216 0.294 -0.582 0.317 0.547 -0.166 -0.6 0.086`),
    out: numbers(`1.641 2.465 2.193 -1.553 -2.112 1.498 2.022 -2.028`),
  },
  features: 45,
  scale: 0.539,
  bias: -7.198,
  depth: 30,
};
