/**
 * The scoring of a ranked search, apart from the project: each side's scores and candidates
 * over a query's sources (`retrieveFrom`), then fusion and the second stage (`fuse`). It
 * reads only its arguments, so a search worker runs it over shared memory with few modules
 * loaded (`search_worker.ts`); `hybrid.ts` gathers the sources, presents the results and
 * re-exports what is here.
 *
 * @module
 */

import type { MemberSimilarity } from "./members.ts";
import { type Bm25Params, DEFAULT_BM25, type LexicalIndex } from "./lexical.ts";
import { slot } from "../util/memo.ts";
import type { ChunkTable } from "./table.ts";
import { DEFAULT_RERANK, rerank, type RerankInput, type RerankModel } from "./rerank.ts";
import { type FileClass, fileClass } from "./scope.ts";
import { queryTokens } from "../util/tokens.ts";
import { expandQuery } from "./variants.ts";
import { filterMask, type FlatVectorIndex, type Hit } from "./vectors.ts";
import { topEntries, topKPositive } from "./top_k.ts";
import type { RankedMode, SearchOptions, VectorProgress } from "./options.ts";
import { DEFAULT_EXACT, type ExactWeights } from "./exact.ts";

/** How the two sides are fused; the defaults are tuned by `bench/search_quality.ts`. */
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

const FILE_CLASSES = slot(
  "file classes",
  (table: ChunkTable) => table.files.map((f) => fileClass(f.path, f.language)),
);

/** The class (code, docs, tests…) of each file of the table, made once per table. */
export function fileClasses(table: ChunkTable): FileClass[] {
  return table.memo.get(FILE_CLASSES);
}

/** Both sides' scores for one query, before fusion. */
export interface Retrieved {
  table: ChunkTable;
  mode: RankedMode;
  /** Factor of each file's scores (scope), 0 for files the filters leave out. */
  fileWeight: Float32Array;
  /** Whether a row's file is docs (prose). */
  isDocs: (row: number) => boolean;
  /** Lexical score of every row (null in dense mode), and the query's largest possible. */
  lex: Float32Array | null;
  lexMax: number;
  lexTop: Hit[];
  /** Per row, the summed idf of the query terms it contains (hybrid mode), and its max. */
  lexCover: Float32Array | null;
  coverMax: number;
  /** Cosine of every row (NaN: no vector yet; null: no vectors at all). */
  dense: Float32Array | null;
  denseTop: Hit[];
  /** Share of each row's symbol name that the query covers. */
  nameCover: (row: number) => number;
  /** Share of the query's (idf-weighted) known terms that a row's symbol name holds. */
  queryInName: (row: number) => number;
  terms: ReadonlySet<string>;
  /** A term's weight for pointing at members: its idf when in the query, else 0. */
  termWeight: (term: string) => number;
  similarity?: MemberSimilarity;
  vectors: VectorProgress;
}

/** What a ranked search of one query reads, gathered on the main thread. */
export interface RetrieveSources {
  table: ChunkTable;
  mode: RankedMode;
  /** Factor of each file's scores (scope), 0 for files the filters leave out. */
  fileWeight: Float32Array;
  /** The lexical index (null in dense mode). */
  lexical: LexicalIndex | null;
  /** The vectors of the generation and the query's vector (null: lexical side alone). */
  vectors: FlatVectorIndex | null;
  qv: Float32Array | null;
  progress: VectorProgress;
  /**
   * Arrays of one entry per row that the scoring may fill instead of making new ones (a
   * search worker's, reused query after query: the results are read before the next).
   */
  scratch?: { lex: Float32Array; cover: Float32Array; dense: Float32Array; listed: Int32Array };
}

/** The query's terms, and each one's weight for pointing at members (its idf). */
export function queryTerms(
  query: string,
  lexical: LexicalIndex | null,
  rows: number,
  tokens: readonly string[] = queryTokens(query),
): { terms: ReadonlySet<string>; termWeight: (term: string) => number } {
  const terms = new Set(tokens);
  const n1 = Math.max(1, rows);
  const termWeight = (t: string) => {
    if (!terms.has(t)) return 0;
    if (!lexical) return 1;
    const df = lexical.df(t);
    return Math.log(1 + (n1 - df + 0.5) / (df + 0.5));
  };
  return { terms, termWeight };
}

/**
 * Stage 1, the scoring: every row on the side(s) of `src.mode`, with the filters, and each
 * side's best candidates. Reads only `src` (no project, no store): a search worker runs it
 * over the same arrays in shared memory.
 */
export function retrieveFrom(
  src: RetrieveSources,
  query: string,
  opts: SearchOptions = {},
  fusion: FusionParams = DEFAULT_FUSION,
): Retrieved {
  const { table, mode, fileWeight, lexical, vectors } = src;
  // An empty query vector (codectx-code knows none of its tokens) is no evidence: every
  // cosine would be 0, its "nearest" rows arbitrary. The lexical side answers alone.
  const qv = src.qv?.some((x) => x !== 0) ? src.qv : null;
  const classes = fileClasses(table);
  const isDocs = (row: number) => classes[table.fileOfRow[row]] === "docs";
  // The rows the filters let through (made once per file-weights array).
  const mask = filterMask(table.fileOfRow, fileWeight);
  const n = table.chunks.length;
  const C = Math.max(fusion.candidates, (opts.top_k ?? 10) * 5);
  const qTokens = queryTokens(query);
  let dense: Float32Array | null = null;
  let denseTop: Hit[] = [];
  if (vectors && qv) {
    // Scores of the rows scored (a shortlist once the vectors are sealed), NaN elsewhere.
    ({ scores: dense, top: denseTop } = vectors.nearest(
      qv,
      C,
      mask,
      undefined,
      src.scratch?.dense,
    ));
  }

  // Lexical side.
  let lex: Float32Array | null = null;
  let lexTop: Hit[] = [];
  let lexMax = 0;
  let lexCover: Float32Array | null = null;
  // The query's words, with the other forms and compounds of them the index knows.
  const q = lexical
    ? expandQuery(qTokens, (t) => lexical.termId(t) >= 0, query)
    : { terms: [], weights: [] };
  if (lexical) {
    const l = src.scratch?.lex.fill(0) ?? new Float32Array(n);
    if (mode === "hybrid") lexCover = src.scratch?.cover.fill(0) ?? new Float32Array(n);
    // The rows the postings reach: the top k reads those alone.
    const listed = { rows: src.scratch?.listed ?? new Int32Array(n), count: 0 };
    lexMax = lexical.score(q.terms, l, lexCover ?? undefined, q.weights, listed);
    lex = l;
    lexTop = topKPositive(l, C, mask, listed);
    // The lexical candidates get their dense score too (the shortlist may miss them).
    if (vectors && qv && dense) vectors.scoreRows(qv, lexTop.map((h) => h.row), dense);
  }
  // A name matches the query's words and the forms of them (`bail` for `bailing`).
  const qIds = new Set(
    lexical ? q.terms.map((t) => lexical.termId(t)).filter((i) => i >= 0) : [],
  );
  const nameCover = (row: number) => {
    if (!lexical || qIds.size === 0) return 0;
    const ids = lexical.nameTerms(row);
    if (ids.length === 0) return 0;
    let hit = 0;
    for (const id of ids) if (qIds.has(id)) hit++;
    return hit / ids.length;
  };
  const { terms, termWeight } = queryTerms(query, lexical, n, qTokens);
  let coverMax = 0;
  const idOf = new Map<number, number>();
  if (lexical) {
    for (const t of terms) {
      const id = lexical.termId(t);
      if (id < 0) continue;
      idOf.set(id, termWeight(t));
      coverMax += termWeight(t);
    }
    // The added forms count in a name at their weight (the largest possible is unchanged).
    q.terms.forEach((t, k) => {
      const id = lexical.termId(t);
      if (id < 0 || idOf.has(id)) return;
      const df = lexical.df(t);
      idOf.set(id, q.weights[k] * Math.log(1 + (Math.max(1, n) - df + 0.5) / (df + 0.5)));
    });
  }
  const queryInName = (row: number) => {
    if (!lexical || coverMax === 0) return 0;
    let s = 0;
    for (const id of new Set(lexical.nameTerms(row))) s += idOf.get(id) ?? 0;
    return s / coverMax;
  };
  return {
    table,
    mode,
    fileWeight,
    isDocs,
    lex,
    lexMax,
    lexTop,
    lexCover,
    coverMax,
    dense,
    denseTop,
    nameCover,
    queryInName,
    terms,
    termWeight,
    vectors: src.progress,
  };
}

/**
 * Stage 2: one score in [0, 1] per candidate row; in hybrid mode with a model, the fused
 * list's best `depth` candidates re-scored by it (the others dropped).
 */
export function fuse(
  r: Retrieved,
  fusion: FusionParams = DEFAULT_FUSION,
  depth = 50,
): Map<number, number> {
  const fused = fuseWeighted(r, fusion);
  const model = fusion.rerank;
  if (!model || r.mode !== "hybrid" || !r.dense) return calibrated(r, fused, fusion.calibration);
  const keep = Math.max(depth, model.depth);
  const out = rerank(model, rerankInput(r), bestOf(fused, keep), keep);
  // The scope's factors (docs below code) hold after re-scoring too.
  for (const [row, s] of out) out.set(row, s * r.fileWeight[r.table.fileOfRow[row]]);
  return out;
}

/** A first-stage score as the chance of an answer, where the mode has a curve. */
function calibrated(
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

/** The first stage's fused score, kind and scope factors applied. */
function fuseWeighted(r: Retrieved, fusion: FusionParams): Map<number, number> {
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
