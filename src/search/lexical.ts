/**
 * BM25F over chunks: per-field term frequencies (name, signature, doc, body, path), each
 * field weighted and length-normalised on its own, then one saturation per term. Built in
 * memory, per generation, from the per-file `terms` blob parts (`terms.ts`).
 *
 * @module
 */

import { FIELD_COUNT, type FileTerms } from "../index/terms.ts";

/** BM25F parameters. */
export interface Bm25Params {
  k1: number;
  /** Weight per field: name, signature, doc, body, path. */
  weights: readonly number[];
  /** Length normalisation per field (0: none, 1: full). */
  b: readonly number[];
}

/**
 * Tuned by coordinate search on the development half of `bench/search_quality.ts` (Python
 * standard library), except the doc weight: that evaluation removes the answers' doc
 * comments, so it cannot judge doc matches fairly; the doc field keeps the body's weight.
 */
export const DEFAULT_BM25: Bm25Params = {
  k1: 2,
  weights: [1.5, 3, 1, 1, 1.5],
  b: [0.9, 0.9, 0.9, 0.9, 0.6],
};

/** One file's share of the index: its term statistics and how many rows (chunks) it has. */
export interface LexicalInput {
  terms: FileTerms | null;
  rows: number;
}

/** The in-memory inverted index. */
export interface LexicalIndex {
  /** Number of rows (chunks). */
  readonly size: number;
  readonly params: Bm25Params;
  /**
   * Adds each row's BM25F score for `terms` into `out` (length `size`, zeroed by the
   * caller); returns the largest score any row could reach (for normalisation), 0 when
   * no term is known. With `cover`, also adds there the idf of each distinct query term a
   * row contains (how much of the query a row has, whatever its term frequencies).
   */
  score(terms: readonly string[], out: Float32Array, cover?: Float32Array): number;
  /** Term ids of a row's name field. */
  nameTerms(row: number): Uint32Array;
  /** The id of a term, or -1. */
  termId(term: string): number;
  /** In how many rows a term occurs. */
  df(term: string): number;
}

/**
 * Builds the index. Rows are numbered in input order: file 0's chunks first.
 *
 * @example
 * ```ts
 * const lex = buildLexicalIndex([{ terms: fileTerms("a.py", chunks, symbols), rows: chunks.length }]);
 * const scores = new Float32Array(lex.size);
 * lex.score(queryTokens("parse config"), scores);
 * ```
 */
export function buildLexicalIndex(
  files: readonly LexicalInput[],
  params: Bm25Params = DEFAULT_BM25,
): LexicalIndex {
  const size = files.reduce((a, f) => a + f.rows, 0);
  const vocab = new Map<string, number>();
  const chunkFields = FIELD_COUNT - 1;

  // Pass 1: average field lengths and the global id of every file-local term.
  const lenSum = new Float64Array(FIELD_COUNT);
  const localIds: Array<Int32Array | null> = [];
  let postingsUpper = 0;
  for (const f of files) {
    const t = f.terms;
    if (!t || t.c.length !== f.rows) {
      localIds.push(null);
      continue;
    }
    const ids = new Int32Array(t.v.length);
    for (let i = 0; i < t.v.length; i++) {
      let g = vocab.get(t.v[i]);
      if (g === undefined) {
        g = vocab.size;
        vocab.set(t.v[i], g);
      }
      ids[i] = g;
    }
    localIds.push(ids);
    let pathLen = 0;
    for (let i = 1; i < t.p.length; i += 2) pathLen += t.p[i];
    for (const row of t.c) {
      for (let k = 0; k < chunkFields; k++) lenSum[k] += row[k];
      lenSum[FIELD_COUNT - 1] += pathLen;
      postingsUpper += (row.length - chunkFields) / 2 + t.p.length / 2;
    }
  }
  const avg = Array.from(lenSum, (s) => (size ? s / size : 0) || 1);

  // Pass 2: chunk-major (term, weighted tf) lists, merged across fields.
  const rowStart = new Uint32Array(size + 1);
  const cmTerm = new Uint32Array(postingsUpper);
  const cmTf = new Float32Array(postingsUpper);
  const nameStart = new Uint32Array(size + 1);
  const nameIds: number[] = [];
  const acc = new Map<number, number>();
  const termCount = new Uint32Array(vocab.size + 1);
  let n = 0;
  let row = 0;
  for (let fi = 0; fi < files.length; fi++) {
    const f = files[fi];
    const t = f.terms;
    const ids = localIds[fi];
    for (let r = 0; r < f.rows; r++, row++) {
      rowStart[row] = n;
      nameStart[row] = nameIds.length;
      if (!t || !ids) continue;
      const data = t.c[r];
      acc.clear();
      const norm = new Array<number>(FIELD_COUNT);
      for (let k = 0; k < chunkFields; k++) {
        norm[k] = params.weights[k] / (1 - params.b[k] + params.b[k] * data[k] / avg[k]);
      }
      for (let i = chunkFields; i < data.length; i += 2) {
        const code = data[i];
        const field = code % chunkFields;
        const g = ids[(code - field) / chunkFields];
        acc.set(g, (acc.get(g) ?? 0) + data[i + 1] * norm[field]);
        if (field === 0) nameIds.push(g);
      }
      let pathLen = 0;
      for (let i = 1; i < t.p.length; i += 2) pathLen += t.p[i];
      const pk = FIELD_COUNT - 1;
      const pNorm = params.weights[pk] / (1 - params.b[pk] + params.b[pk] * pathLen / avg[pk]);
      for (let i = 0; i < t.p.length; i += 2) {
        const g = ids[t.p[i]];
        acc.set(g, (acc.get(g) ?? 0) + t.p[i + 1] * pNorm);
      }
      for (const [g, tf] of acc) {
        cmTerm[n] = g;
        cmTf[n] = tf / (params.k1 + tf);
        termCount[g]++;
        n++;
      }
    }
  }
  rowStart[size] = n;
  nameStart[size] = nameIds.length;
  const names = Uint32Array.from(nameIds);

  // Pass 3: transpose into term-major postings (counting sort keeps rows ascending).
  const termStart = new Uint32Array(vocab.size + 1);
  for (let g = 0; g < vocab.size; g++) termStart[g + 1] = termStart[g] + termCount[g];
  const fillAt = termStart.slice(0, vocab.size);
  const docs = new Uint32Array(n);
  const sat = new Float32Array(n);
  for (let r = 0; r < size; r++) {
    for (let i = rowStart[r]; i < rowStart[r + 1]; i++) {
      const at = fillAt[cmTerm[i]]++;
      docs[at] = r;
      sat[at] = cmTf[i];
    }
  }

  const idf = (df: number) => Math.log(1 + (size - df + 0.5) / (df + 0.5));
  return {
    size,
    params,
    termId: (term) => vocab.get(term) ?? -1,
    df: (term) => {
      const g = vocab.get(term);
      return g === undefined ? 0 : termStart[g + 1] - termStart[g];
    },
    nameTerms: (r) => names.subarray(nameStart[r], nameStart[r + 1]),
    score(terms, out, cover) {
      const qtf = new Map<number, number>();
      for (const term of terms) {
        const g = vocab.get(term);
        if (g !== undefined) qtf.set(g, (qtf.get(g) ?? 0) + 1);
      }
      let max = 0;
      for (const [g, q] of qtf) {
        const s = termStart[g];
        const e = termStart[g + 1];
        const w = idf(e - s) * q;
        max += w;
        for (let i = s; i < e; i++) out[docs[i]] += w * sat[i];
        if (cover) {
          const c = idf(e - s);
          for (let i = s; i < e; i++) cover[docs[i]] += c;
        }
      }
      return max;
    },
  };
}
