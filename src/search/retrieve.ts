/**
 * Stage 1 of a ranked search: retrieve. Over a query's sources (the rows, the lexical index,
 * the vectors, the filters' file weights) each side scores every row it reaches and gives
 * its best candidates; the analysed question (`query.ts`) is bound here to the index: the
 * variants of its words the index knows (`variants.ts`), each term's idf, the name
 * coverage. It reads only its arguments, so a search worker runs it over shared memory with
 * few modules loaded (`search_worker.ts`); `hybrid.ts` gathers the sources.
 *
 * @module
 */

import type { MemberSimilarity } from "./members.ts";
import type { LexicalIndex } from "./lexical.ts";
import type { ChunkTable } from "./table.ts";
import { fileClasses } from "./scope.ts";
import { expandQuery } from "./variants.ts";
import { filterMask, type FlatVectorIndex, type Hit } from "./vectors.ts";
import { topKPositive } from "./top_k.ts";
import type { RankedMode, SearchOptions, VectorProgress } from "./options.ts";
import type { AnalysedQuery } from "./query.ts";

/** Both sides' scores for one query, before fusion. */
export interface Retrieved {
  /** The question, analysed once (`query.ts`). */
  query: AnalysedQuery;
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
  /** The query's terms (`query.terms`). */
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

/** A query term's weight for pointing at members: its idf in the index when in the query. */
export function termWeights(
  q: AnalysedQuery,
  lexical: LexicalIndex | null,
  rows: number,
): (term: string) => number {
  const n1 = Math.max(1, rows);
  // Asked per candidate and per member for the same few terms: each is looked up once.
  const known = new Map<string, number>();
  return (t: string) => {
    if (!q.terms.has(t)) return 0;
    if (!lexical) return 1;
    let w = known.get(t);
    if (w === undefined) {
      const df = lexical.df(t);
      known.set(t, w = Math.log(1 + (n1 - df + 0.5) / (df + 0.5)));
    }
    return w;
  };
}

/**
 * Stage 1, the scoring: every row on the side(s) of `src.mode`, with the filters, and each
 * side's best `candidates` (at least five times the results asked for). Reads only `src`
 * (no project, no store): a search worker runs it over the same arrays in shared memory.
 */
export function retrieveFrom(
  src: RetrieveSources,
  query: AnalysedQuery,
  opts: SearchOptions = {},
  candidates = 200,
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
  const C = Math.max(candidates, (opts.top_k ?? 10) * 5);
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
    ? expandQuery(query.tokens, (t) => lexical.termId(t) >= 0, query.text)
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
  const { terms } = query;
  const termWeight = termWeights(query, lexical, n);
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
    query,
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
