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
 * on 2,551 queries of the tuning packages in six languages (queries past the 150 per
 * language that the evaluation uses; the held-out packages are never opened there), with
 * labels from the member pointing of `members.ts` (the query's cosine per member).
 */
export const DEFAULT_RERANK: RerankModel = {
  weights: numbers(`
  0.596 0.277 0.207 0.356 -0.386 0.258 0.54 -0.036 -0.213 0 0.495 0.287 0.374 0.498 -0.034 0.207
  0.076 0.07 0.434 0.126 0.156 0.181 0.42 0.002 0.289 0.248 -0.002 -0.099 -0.094 0.206 -0.206 -0.285
  0.124 -0.015 0.179 0.143
`),
  hidden: {
    w: numbers(`
  0.252 -0.475 -0.12 -0.635 3.741 0.111 -0.38 -0.261 -0.162 0 -0.185 -0.074 0.145 -0.055 0.308 0.252
  0.399 0.193 0.224 -0.192 -0.186 0.221 -0.037 -0.287 0.267 -0.222 -0.26 0.459 -0.076 -0.172 0.053 -0.184
  -0.08 -0.033 -0.392 0.065 0.255 -0.041 -0.218 0.051 1.463 0.04 -0.591 -0.299 0.477 0 -0.649 0.073
  0.034 -0.413 0.205 -0.031 0.399 0.106 0.037 0.222 0.325 0.157 -0.595 -0.504 0.273 -0.12 0.014 0.263
  -0.209 -0.437 -0.211 -0.328 0.296 0.445 -0.165 -0.09 0.179 0.011 0.14 0.256 0.695 0.212 -0.386 0.572
  -0.183 0 -0.074 0.012 0.35 0.12 0.113 0.092 0.165 -0.02 -0.143 -0.123 0.433 0.431 -0.183 -0.233
  -0.32 -0.149 0.171 0.112 -0.117 0.124 -0.018 -0.192 0.102 0.107 0.197 0.148 -0.007 -0.224 -0.076 0.208
  0.106 -0.469 -0.115 0.087 -0.139 0 0.515 -0.81 -0.317 0.166 -0.377 0.032 -0.427 -0.055 -0.274 -0.339
  0.259 0.542 -0.304 0.053 -0.569 -0.363 0.097 0.183 -0.024 -0.087 -0.279 -0.354 0.483 0.552 0.054 -0.012
  0.184 -0.007 -0.022 0.008 0.765 0.215 -0.134 0.203 -0.122 0 -0.802 -0.485 0.165 0.219 -0.235 -0.126
  0.29 0.166 -0.452 -0.149 -0.234 -0.212 -0.015 0.139 0.282 0.251 -0.012 -0.111 -0.646 -0.566 0.028 -0.028
  0.199 0.263 0.134 0.169 -0.086 -0.319 -0.012 -0.281 0.168 -0.619 -0.237 -0.602 0.373 0 0.906 -0.07
  0.365 -0.434 -0.028 0.285 0.323 0.112 -0.072 -0.2 -0.289 0.073 -0.817 -0.203 -0.48 -0.657 0.016 0.191
  0.307 0.133 0.222 0.081 -0.136 -0.014 -0.259 0.258 -0.252 0.187 0.242 0.366 -1.815 0.459 1.086 -0.1
  -0.15 0 0.184 -0.341 -0.119 0.495 -0.129 0.131 0.467 -0.089 0.104 -0.204 -0.192 0.165 0.175 -0.114
  0.03 0.218 0.092 0.208 -0.057 -0.002 -0.079 -0.102 -0.046 -0.238 0.285 0.13 0.16 0.048 0.171 -0.395
  -0.027 -0.184 -0.219 0.622 0.197 0 0.739 -0.106 -0.138 -0.431 0.249 -0.025 0.411 -0.142 0.493 -0.758
  -0.303 -0.051 0.832 0.79 -0.066 -0.076 -0.168 0.153 0.06 0.006 0.171 0.044 0.131 0.092 -0.089 -0.029
`),
    b: numbers(`-1.043 -0.476 -0.092 -0.034 -0.004 -0.261 0.398 0.611`),
    out: numbers(`2.957 -1.786 1.07 -1.149 -1.378 -1.816 2.08 -1.562`),
  },
  features: 36,
  scale: 0.645,
  bias: -7.388,
  depth: 30,
};
