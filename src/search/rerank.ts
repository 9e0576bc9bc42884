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
 * Learned by `bench/search_rerank.ts --train 600 --variants all:8 --depth 30` on 2,283 queries
 * of the tuning packages in six languages (queries past the 150 per language that the
 * evaluation uses; the held-out packages are never opened there).
 */
export const DEFAULT_RERANK: RerankModel = {
  weights: numbers(`
  0.508 0.282 0.236 0.383 -0.167 0.147 0.384 -0.098 -0.151 0 0.156 0.293 0.254 0.483 -0.126
  0.247 0.05 0.186 0.422 -0.083 0.354 0.174 0.222 0.2 0.125 0.149 -0.162 -0.204 0.121 0.245
  -0.167 -0.018 0.059 -0.177 0.334 0.218
`),
  hidden: {
    w: numbers(`
  0.288 0.27 0.031 0.158 0.265 0.063 -0.046 0.518 -0.477 0 -0.369 0.068 -0.348 0.048 0.085
  -0.403 -0.583 0.07 0.092 0.259 0.635 0.207 0.547 0.534 0.358 0.263 -0.127 -0.253 -0.188 0.113
  -0.285 -0.273 0.463 0.381 0.064 -0.189 -0.034 -0.029 -0.132 -0.415 0.333 0.248 -0.534 0.5
  0.345 0 -1.19 0.801 0.04 -0.404 0.233 -0.692 0.132 -0.091 0.108 0.136 -0.052 -0.145 0.145
  0.002 0.237 0.374 0.06 0.038 0.185 -0.231 0.049 0.059 -0.581 -0.422 0.03 0.065 -0.01 0.119
  0.343 0.654 -0.199 1.117 0.504 0.191 -0.004 0 -1.131 -0.338 0.26 0.715 -0.168 -0.097 0.568
  -0.073 -0.222 -0.533 -0.122 -0.103 -0.032 -0.2 0.321 0.602 0.272 0.277 -0.513 -0.024 -0.243
  0.057 0.188 -0.027 0.048 -0.542 -0.165 -0.298 -0.071 0.097 -0.148 -0.176 -0.206 0.15 0.227 0
  0.412 -0.733 -0.207 0.296 -0.494 -0.299 -0.257 -0.092 -0.24 -0.54 0.067 0.58 -0.435 -0.164
  -0.505 -0.268 0.388 0.534 0.253 0.289 -0.233 -0.345 -0.493 -0.554 0.296 0.255 -0.083 -0.22
  -0.245 0.023 0.897 -0.117 0.055 -0.119 0.087 0 -0.769 -0.558 -0.303 0.343 -0.35 -0.081 -0.161
  -0.224 0.281 0.207 -0.19 -0.215 0.25 0.086 0.491 0.364 -0.096 -0.3 -0.844 -0.718 0.124 -0.022
  0.17 0.42 -0.048 0.008 0.147 0.191 0.064 -0.436 0.111 -0.648 0.137 0.358 -0.073 0 0.047 -0.218
  -0.169 -0.194 0.101 0.688 0.396 -0.205 -0.064 -0.799 -0.038 0.173 0.666 0.399 0.176 -0.274
  0.183 0.415 0.065 -0.242 -0.107 -0.099 0.082 0.35 -0.256 -0.093 0.226 -0.579 -0.112 -0.832
  3.591 -0.353 -0.65 0.451 -0.244 0 0.021 0.113 -0.05 -0.224 0.242 0.313 0.068 0.043 0.378
  -0.131 -0.361 0.164 0.028 -0.019 0.214 -0.106 -0.417 0.378 0.006 -0.196 0.154 -0.135 -0.168
  -0.169 -0.351 0.078 0.353 -0.153 -0.153 -0.038 2.863 -0.047 -1.856 0.516 0.358 0 -0.118 -0.064
  0.336 -0.244 0.256 -0.012 0.298 0.221 -0.211 -0.091 0.085 0.098 -0.247 -0.076 -0.301 -0.141
  0.085 0.118 -0.138 0.17 0.386 -0.201 0.073 0.027 -0.2 -0.025
`),
    b: numbers(`-0.154 0.097 0.525 0.175 0.037 0.537 -0.765 -0.885`),
    out: numbers(`1.431 -1.588 1.937 -1.669 -1.785 -1.501 3.047 -3.009`),
  },
  features: 36,
  scale: 0.615,
  bias: -7.919,
  depth: 30,
};
