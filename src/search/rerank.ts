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

import { slot } from "../util/memo.ts";
import type { ChunkTable } from "./table.ts";
import { nameFeatures } from "./rerank_names.ts";
import { FUNCTION_KINDS, TYPE_KINDS } from "../types.ts";
import { codeTokens } from "../util/tokens.ts";
import { topEntries } from "./top_k.ts";
import type { Hit } from "./vectors.ts";
import type { Retrieved } from "./retrieve.ts";

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
  isDocs: (row: number) => boolean;
  /**
   * Per file (index in the table) among each side's candidates: its best lexical and dense
   * scores, and how many of its rows are candidates of either side.
   */
  fileLex: ReadonlyMap<number, number>;
  fileDense: ReadonlyMap<number, number>;
  fileCount: ReadonlyMap<number, number>;
}

/** Each file's path words, made when a query first reads them. */
const PATH_TERMS = slot(
  "path terms",
  (table: ChunkTable) => new Array<ReadonlySet<string> | undefined>(table.files.length),
);

function pathCover(input: RerankInput, row: number): number {
  if (input.terms.size === 0) return 0;
  const fi = input.table.fileOfRow[row];
  const all = input.table.memo.get(PATH_TERMS);
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

/**
 * The second stage over a retrieval's fused list: its best `depth` candidates (at least the
 * model's depth) re-scored by `model`, the others dropped; the scope's factors (docs below
 * code) hold after re-scoring too.
 */
export function rerankRetrieved(
  model: RerankModel,
  r: Retrieved,
  fused: Map<number, number>,
  depth: number,
): Map<number, number> {
  const keep = Math.max(depth, model.depth);
  const out = rerank(model, rerankInput(r), bestOf(fused, keep), keep);
  for (const [row, s] of out) out.set(row, s * r.fileWeight[r.table.fileOfRow[row]]);
  return out;
}

/**
 * The `n` best entries of `fused` (score, then the lower row): all the second stage takes
 * of it (it sorts what it is given; ~400 entries cost it ~0.05–0.1 ms a query). A list with a
 * NaN score is given whole, as before.
 */
function bestOf(fused: Map<number, number>, n: number): Map<number, number> {
  if (fused.size <= n) return fused;
  for (const s of fused.values()) if (Number.isNaN(s)) return fused;
  return new Map(topEntries(fused, n).map((h) => [h.row, h.score]));
}

/** What the second stage needs of a query's retrieval. */
export function rerankInput(r: Retrieved): RerankInput {
  const rank = (hits: Hit[]) => new Map(hits.map((h, i) => [h.row, i]));
  const fileLex = new Map<number, number>();
  const fileDense = new Map<number, number>();
  const fileCount = new Map<number, number>();
  const perFile = (hits: Hit[], best: Map<number, number>) => {
    for (const h of hits) {
      const fi = r.table.fileOfRow[h.row];
      if (!(h.score <= (best.get(fi) ?? -Infinity))) best.set(fi, h.score);
      fileCount.set(fi, (fileCount.get(fi) ?? 0) + 1);
    }
  };
  perFile(r.lexTop, fileLex);
  perFile(r.denseTop, fileDense);
  return {
    fileLex,
    fileDense,
    fileCount,
    table: r.table,
    lex: r.lex,
    dense: r.dense,
    lexRank: rank(r.lexTop),
    denseRank: rank(r.denseTop),
    topLex: r.lexTop[0]?.score ?? 0,
    topDense: r.denseTop[0]?.score ?? 0,
    coverage: r.lexMax > 0 ? (r.lexTop[0]?.score ?? 0) / r.lexMax : 0,
    cover: r.lexCover,
    coverMax: r.coverMax,
    lexStats: stats(r.lexTop),
    denseStats: stats(r.denseTop),
    terms: r.terms,
    nameCover: r.nameCover,
    queryInName: r.queryInName,
    isDocs: r.isDocs,
  };
}

/** Mean and standard deviation of a side's candidate scores. */
function stats(hits: readonly Hit[]): readonly [number, number] {
  if (hits.length < 2) return [0, 0];
  let sum = 0, sq = 0;
  for (const h of hits) {
    sum += h.score;
    sq += h.score * h.score;
  }
  const mean = sum / hits.length;
  return [mean, Math.sqrt(Math.max(0, sq / hits.length - mean * mean))];
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
 * tuning queries 750–1,050 from .455 to .468 (three trainings: .455–.457 and .459–.468).
 */
export const DEFAULT_RERANK: RerankModel = {
  weights: numbers(`
  0.574 0.172 0.325 0.265 -0.093 0.014 0.514 -0.018 -0.235 0 -0.018 0.048 0.288 0.279 0.196
  0.115 0.207 0.124 0.322 0.297 0.241 0.463 0.133 -0.157 -0.058 0.212 -0.18 -0.09 0.008 0.15
  0.153 0.109 0.069 0.147 0.332 0.206 0.63 0.453 0.172 0.303 -0.137 0.51 -0.182 0.108
`),
  hidden: {
    w: numbers(`
  -0.293 0.005 0.04 -0.062 -1.551 0.158 0.668 0.333 -0.49 0 0.077 -0.481 -0.764 0.27 -0.158
  0.282 -0.225 -0.211 0.197 0.28 -0.14 0.024 0.78 0.253 -0.113 0.014 -0.379 0.01 -0.071 -0.106
  0.001 0.177 0.136 -0.041 0.239 -0.219 0.218 0.455 -0.349 -0.101 0.467 0.178 -0.029 0.546 0.157
  0.061 -0.121 0.005 0.585 -0.211 -0.387 0.171 0.025 0 -0.867 0.198 -0.355 -0.062 0.019 -0.384
  -0.319 0.032 0.315 0.241 0.261 -0.044 0.235 0.305 0.334 0.262 -0.083 -0.189 -0.299 -0.349
  -0.01 0.157 0.117 0.033 0.045 -0.062 -0.282 0.143 -0.246 -0.409 -0.144 -0.213 -0.203 0.074
  0.144 0.205 0.079 0.337 -0.06 0.199 -0.005 0.89 -0.501 0 -1.2 0.284 -0.088 0.133 0.095 -0.161
  0.257 -0.089 -0.235 0.141 -0.079 -0.212 0.8 -0.144 0.727 0.578 0.244 -0.186 -0.22 0.327 -0.135
  0.034 -0.769 -0.737 0.379 -0.027 0.005 0.188 0.16 -0.013 0.042 0.031 0.277 1.058 -0.029 0.126
  -0.276 -0.218 -0.257 0.011 -0.224 0.024 0.1 0 -0.084 -0.32 -0.043 -0.16 -0.012 0.264 -0.095
  0.228 -0.377 -0.367 -0.461 -0.322 0.034 0.235 -0.016 -0.034 0.375 -0.213 0.464 0.192 -0.128
  -0.089 -0.216 -0.172 -0.328 0.011 -0.141 -0.321 0.594 -0.132 0.218 0.546 0.966 0.23 -0.205
  0.207 -0.121 0.262 -3.726 0.308 0.602 -0.346 0.278 0 0.152 0.149 -0.124 -0.453 -0.008 0.099
  -0.156 -0.137 -0.076 0.067 0.043 -0.058 0.101 0.337 -0.289 0.317 0.054 -0.533 0.345 -0.156
  0.017 0.119 -0.086 0.119 0.231 -0.04 0.183 -0.2 0.054 0.124 0.254 0.005 -0.15 0.16 0.371 0.377
  0.326 0.292 -0.019 -0.179 0.543 -0.232 0.23 0 -0.724 -0.238 -0.317 -0.119 0.265 0.398 -0.449
  0.524 -0.301 0.396 0.036 -0.376 -0.796 -0.581 -0.034 -0.381 0.223 -0.073 -0.219 0.259 0.143
  0.061 0.115 0.192 0.085 0.269 -0.468 -0.094 -0.295 0.333 0.085 -0.445 -0.929 -0.106 0.314
  -0.271 -0.268 0.213 0.501 0.14 -0.908 0.662 -0.311 0 -0.401 -0.012 0.112 0.125 -0.137 0.077
  -0.037 -0.182 -0.28 -0.064 0.118 0.594 -0.368 -0.222 -0.417 -0.215 0.032 -0.111 -0.148 -0.109
  -0.36 0.134 0.27 0.318 0.305 -0.355 -0.208 -0.665 -0.466 -0.086 1.464 -0.045 0.183 0.952
  -0.341 0.143 -0.072 0.206 -0.134 0.596 0.138 -0.752 -0.191 0 -0.24 0.426 0.584 0.476 -0.353
  0.087 -0.659 0.301 -0.188 -0.174 0.247 0.412 -0.334 -0.557 -0.266 0.5 0.34 -0.096 -0.256 0.171
  0.106 -0.813 -0.08 0.045 0.305 0.189 1.032 -0.879 -0.222 -0.187 0.666 -0.215 -0.642 -0.266
`),
    b: numbers(`0.085 -0.127 0.171 -0.017 0.737 0.807 -0.289 -0.895`),
    out: numbers(`2.186 -1.18 1.938 -1.357 -2.362 -1.729 -2.531 2.22`),
  },
  features: 44,
  scale: 0.555,
  bias: -7.195,
  depth: 30,
};
