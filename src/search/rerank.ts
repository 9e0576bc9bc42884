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
 * Learned by `bench/search_rerank.ts --train 600 --variants all:8 --depth 30 --epochs 300`
 * on 2,551 queries of the tuning packages in six languages (queries past the 150 per
 * language that the evaluation uses; the held-out packages are never opened there), with
 * labels from the member pointing of `members.ts`. The file features (`file_*`) took the
 * tuning set's mean MRR@10 from .430 to .439 (same training without them).
 */
export const DEFAULT_RERANK: RerankModel = {
  weights: numbers(`
  0.532 0.139 0.357 0.34 -0.293 0.346 0.291 0.283 -0.271 0 0.815 0.209 0.343 0.394 0.091 0.242
  0.201 0.184 0.196 0.372 0.009 0.242 0.235 0.066 0.398 0.333 -0.168 -0.136 -0.14 0.237 -0.316 -0.188
  -0.081 -0.117 0.319 0.225 0.72 0.324 0.082 0.256 0.069
`),
  hidden: {
    w: numbers(`
  0.108 -0.39 -0.044 -0.415 3.806 0.049 -0.436 -0.147 -0.297 0 -0.012 -0.026 0.202 0.028 0.362 0.171
  0.339 0.275 0.171 -0.095 -0.296 0.101 -0.209 -0.371 0.295 -0.251 -0.217 0.419 -0.138 0.06 0.005 -0.18
  -0.011 -0.163 -0.276 0.027 0 -0.13 -0.004 -0.135 -0.237 0.145 0.137 -0.07 -0.265 0.584 -0.379 -0.021
  -0.089 0.294 0 0.369 -0.076 -0.409 -0.331 0.022 0.143 0.41 -0.183 0.43 -0.014 -0.278 -0.501 0.774
  0.706 -0.179 0.132 -0.009 0.374 0.059 -0.249 0.334 -0.21 0.068 -0.126 -0.167 -0.055 -0.234 -0.421 -0.006
  0.046 0.55 0.046 0.127 0.077 0.423 0.275 -0.099 0.309 -0.34 0.14 0 -0.124 0.422 -0.083 0.247
  -0.184 0.171 -0.52 0.302 -0.489 1.004 -0.112 -0.237 -0.72 -0.579 0.211 -0.004 0.265 0.137 -0.125 -0.195
  -0.332 -0.137 -0.151 0.031 0.211 0.219 0.076 -0.49 -0.415 0.03 0.494 -0.054 0.054 -0.202 0.165 -0.003
  0.677 0.158 -0.271 0.093 0 -0.729 -0.387 0.146 0.178 -0.232 -0.267 0.489 0 -0.206 -0.441 -0.238
  -0.245 -0.051 -0.048 0.372 0.75 0.213 -0.032 -0.229 -0.202 -0.112 -0.255 -0.233 -0.272 0.052 -0.167 -0.434
  -0.151 0.383 0.135 0.199 -0.413 -0.204 -0.22 0.376 -0.724 0.522 1.267 -0.911 -0.281 0 -0.481 -0.229
  -0.183 0.796 -0.554 -0.042 -0.126 -0.182 0.019 0.046 0.007 0.451 0.137 -0.115 -0.358 0.078 0.124 0.046
  -0.219 -0.222 -0.322 0.342 0.098 0.127 0.482 -0.57 0.055 0.043 -0.288 -0.113 1.341 0.49 -0.109 -0.471
  0.04 1.43 -0.012 -0.592 0.466 -0.21 0 -1.03 0.205 0.182 -0.073 -0.141 -0.425 0.063 0.009 -0.004
  0.132 0.368 0.03 -0.115 -0.151 -0.016 -0.082 0.094 -0.067 -0.359 -0.454 -0.049 -0.052 0.308 0.375 -0.115
  -0.253 -0.324 0.092 -0.256 -0.029 0.461 0.04 -0.362 0.044 -0.029 0.301 -0.5 -0.568 -0.424 0.481 0
  0.776 -0.189 0.38 -0.101 -0.162 0.044 0.292 0.032 -0.292 -0.452 -0.014 0.648 -0.913 -0.31 -0.595 -0.634
  0.204 0.375 0.312 0.074 0.026 0.129 -0.161 -0.131 -0.171 0.232 -0.049 -0.594 0.056 0.047 0.726 0.277
  0.529 -0.09 -0.103 -0.465 -0.27 -0.461 0.548 -0.176 0 -0.836 0.815 0.055 -0.009 0.199 -0.455 -0.117
  0.308 -0.291 0.304 0.099 -0.601 0.014 -0.038 0.1 0.32 0.137 -0.054 0.356 0.172 -0.137 -0.317 -0.135
  -0.415 0.193 0.188 1.05 -0.15 0.006 0.267 0.12
`),
    b: numbers(`-0.656 0.492 0.216 0.17 -0.341 -0.438 -0.26 -0.27`),
    out: numbers(`3.024 -1.604 -1.571 -1.338 2.235 -2.132 -1.997 1.546`),
  },
  features: 41,
  scale: 0.63,
  bias: -7.41,
  depth: 30,
};
