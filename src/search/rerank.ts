/**
 * Second stage of the ranked search: the fused list's best candidates are re-scored by a
 * small model (linear terms plus one layer of tanh units) over features computed in
 * microseconds: each side's normalised score, rank and z-score, the query's lexical
 * coverage and the share of its terms each candidate holds, name and path matches (both
 * ways: the name's words in the query, the query's words in the name), chunk kind and
 * length, and per-language copies of the two sides' scores. The score is then mapped to
 * [0, 1] by a fitted logistic curve, so that it reads as how likely the result is the
 * answer. Learned by `bench/search_rerank.ts` on queries of the tuning packages that the
 * evaluation does not use.
 *
 * @module
 */

import type { ChunkTable } from "./table.ts";
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
  const tc = input.cover && input.coverMax > 0 ? input.cover[row] / input.coverMax : 0;
  const z = (x: number, [mean, sd]: readonly [number, number]) =>
    sd > 0 ? Math.max(-3, Math.min(5, (x - mean) / sd)) / 3 : 0;
  const lz = input.lex ? z(input.lex[row], input.lexStats) : 0;
  const dz = Number.isNaN(cos) ? lz : z(cos, input.denseStats);
  const long = Math.min(1, input.terms.size / 8);
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
    input.queryInName(row),
    input.queryInName(row) * d,
    ...perLanguage,
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
 * on 2,498 queries of the tuning packages in six languages (queries past the 150 per
 * language that the evaluation uses; the held-out packages are never opened there).
 */
export const DEFAULT_RERANK: RerankModel = {
  weights: numbers(`
  0.697 0.3 0.186 0.346 -0.263 0.36 0.692 -0.32 -0.198 0 0.117 0.229 0.34 0.497 -0.111 0.258
  -0.014 0.072 0.492 0.041 0.223 0.154 0.402 0.075 -0.031 0.052 -0.056 -0.091 0.104 0.254 -0.039
  -0.106 0.16 -0.034 0.171 0.062
`),
  hidden: {
    w: numbers(`
  0.195 0.19 0.053 -0.033 0.166 -0.291 -0.097 0.136 -0.242 0 0.29 0.235 -0.426 -0.057 0.132
  -0.121 -0.86 -0.019 0.091 0.41 0.395 0.176 0.415 0.415 0.034 -0.118 -0.364 -0.376 0.212 0.339
  -0.015 -0.028 0.296 0.217 0.006 0.02 -0.058 0.044 -0.327 -0.408 0.7 -0.231 -0.382 0.214 0.64 0
  -0.723 0.451 -0.157 -0.477 0.266 -0.602 -0.139 -0.023 0.163 0.396 0.195 -0.133 0.162 0.101
  0.068 0.037 -0.292 -0.365 -0.258 -0.604 -0.15 -0.224 0.609 0.647 0.13 0.154 0.133 0.235 0.083
  0.386 0.474 0.678 0.395 -0.125 -0.019 0 -0.914 -0.32 -0.108 0.518 -0.057 0.053 0.107 0.01
  -0.05 -0.051 0.108 -0.218 0.375 0.101 0.86 0.819 -0.087 -0.17 -0.752 -0.148 -0.236 -0.053
  0.294 -0.074 0.157 -0.282 -0.142 -0.267 -0.172 0.086 0.065 -0.342 -0.116 -0.067 0.064 0 0.616
  -0.749 -0.232 0.23 -0.429 -0.185 -0.182 -0.045 -0.37 -0.436 0.133 0.432 -0.356 -0.076 -0.438
  -0.377 0.21 0.319 0.095 0.23 -0.188 -0.269 -0.241 -0.359 0.297 0.293 0.055 -0.008 -0.054
  -0.241 0.719 -0.126 0.144 -0.054 0.216 0 -0.253 -0.807 -0.348 -0.161 0.091 -0.027 -0.668
  -0.113 0.375 0.043 -0.379 -0.13 0.38 0.224 0.13 -0.049 -0.089 -0.192 0.404 0.213 0.145 0.082
  -0.243 -0.012 -0.389 -0.1 0.33 -0.229 -0.227 -0.066 2.854 -0.054 -1.574 0.603 0.041 0 -0.207
  0.062 0.32 -0.281 0.221 -0.085 0.193 0.268 -0.281 0.025 0.225 0.006 -0.314 -0.123 -0.049
  -0.347 0.099 0.088 -0.102 0.129 -0.001 -0.042 0.085 0.121 -0.219 -0.088 0.266 -0.543 -0.107
  -0.699 3.607 -0.129 -0.583 0.582 -0.188 0 -0.057 0.017 -0.005 -0.11 0.246 0.255 0.125 0.024
  0.342 -0.197 -0.284 0.264 0.082 -0.104 0.201 -0.114 -0.351 0.424 0.004 -0.145 0.105 -0.133
  -0.156 -0.144 -0.318 0.053 0.064 0.214 0.088 -0.322 -0.063 -0.551 -0.098 0.444 0.248 0 0.475
  -0.118 -0.274 -0.225 0.156 0.574 0.484 -0.106 0.052 -0.822 -0.004 0.014 0.626 0.492 0.113
  -0.181 0.126 0.307 -0.128 -0.206 0.199 0.076 0.102 0.195 -0.206 -0.089
`),
    b: numbers(`-0.189 0.233 0.128 -0.005 0.345 -0.858 -0.917 0.563`),
    out: numbers(`1.089 -1.464 1.861 -1.284 -1.133 -2.797 2.916 -1.324`),
  },
  features: 36,
  scale: 0.656,
  bias: -7.317,
  depth: 30,
};
