/**
 * Builds the BM25F index (`lexical.ts`) from the per-file `terms` parts in two passes over
 * them, holding only one file's terms at a time: the first counts (the vocabulary, each
 * term's rows, each field's length, each row's name terms), the second writes every
 * posting straight into its final place. Memory is the finished arrays and the vocabulary,
 * not the terms of every file (1.4 M chunks of the Linux kernel: several GB as objects).
 *
 * @module
 */

import { FIELD_COUNT } from "../index/terms.ts";
import type { Bm25Params } from "./lexical.ts";
import { collectGarbage, grow } from "../index/columns_io.ts";

/** Where one file's rows are. */
export interface TermsFile {
  /** Key of the file's terms (its blob); files of one key share the terms. */
  key: string;
  /** First row, and how many. */
  start: number;
  rows: number;
}

/**
 * One file's term statistics as the builder reads them: the stored `FileTerms` (JSON) or
 * their binary form (typed arrays), the same layout either way (see `index/terms.ts`).
 */
export interface TermsLike {
  v: ArrayLike<string>;
  p: ArrayLike<number>;
  c: ArrayLike<ArrayLike<number>>;
}

/**
 * The terms to build from: `files` (every row of the index belongs to one, or to none and
 * stays empty) and `each`, which hands over every key's terms, in any order, one at a time;
 * it is called twice.
 */
export interface TermsSource {
  files: readonly TermsFile[];
  each(visit: (key: string, terms: TermsLike) => void): Promise<void> | void;
}

/** Builds over this many rows collect their garbage between steps (see {@link buildFrom}). */
const COLLECT_ABOVE_ROWS = 250_000;

const CHUNK_FIELDS = FIELD_COUNT - 1;
const PATH = FIELD_COUNT - 1;

/** The arrays of a built index (`lexical.ts` makes the index of them). */
export interface BuiltLexical {
  size: number;
  /** The terms, in id order. */
  vocab: { keys(): Iterable<string> };
  termStart: Uint32Array;
  docs: Uint32Array;
  sat: Float32Array;
  nameStart: Uint32Array;
  names: Uint32Array;
}

/**
 * The two passes over the terms: {@link count} every file's terms, then {@link fill} every
 * file's terms again (each key once per pass, in any order), then {@link built}.
 */
export class LexicalBuilder {
  private readonly byKey = new Map<string, TermsFile[]>();
  private readonly vocab = new Map<string, number>();
  private df = new Uint32Array(0);
  /** Per term, the last row that counted it (+1; negated in the second pass). */
  private mark = new Int32Array(0);
  private readonly lenSum = new Float64Array(FIELD_COUNT);
  /** Keys counted and not yet filled: each key counts once, and only what was counted fills. */
  private readonly pending = new Set<string>();
  private readonly nameStart: Uint32Array;
  private filled: {
    avg: number[];
    termStart: Uint32Array;
    fillAt: Uint32Array;
    docs: Uint32Array;
    sat: Float32Array;
    names: Uint32Array;
    acc: Float64Array;
    touched: Uint32Array;
  } | null = null;

  constructor(
    files: readonly TermsFile[],
    private readonly size: number,
    private readonly params: Bm25Params,
  ) {
    for (const f of files) {
      const list = this.byKey.get(f.key);
      if (list) list.push(f);
      else this.byKey.set(f.key, [f]);
    }
    this.nameStart = new Uint32Array(size + 1);
  }

  /** The files of `key` whose terms fit their rows. */
  private filesOf(key: string, t: TermsLike): TermsFile[] {
    return (this.byKey.get(key) ?? []).filter((f) => t.c.length === f.rows);
  }

  /** Pass 1: the vocabulary, each term's rows, each field's length, each row's name terms. */
  count(key: string, t: TermsLike): void {
    const files = this.filesOf(key, t);
    if (!files.length || this.pending.has(key)) return;
    this.pending.add(key);
    const { vocab, lenSum, nameStart } = this;
    const local = new Uint32Array(t.v.length);
    for (let i = 0; i < t.v.length; i++) {
      let g = vocab.get(t.v[i]);
      if (g === undefined) vocab.set(t.v[i], g = vocab.size);
      local[i] = g;
    }
    const df = this.df = grow(this.df, vocab.size);
    const mark = this.mark = grow(this.mark, vocab.size);
    let pathLen = 0;
    for (let i = 1; i < t.p.length; i += 2) pathLen += t.p[i];
    for (const f of files) {
      for (let r = 0; r < f.rows; r++) {
        const row = f.start + r;
        const data = t.c[r];
        for (let k = 0; k < CHUNK_FIELDS; k++) lenSum[k] += data[k];
        lenSum[PATH] += pathLen;
        let names = 0;
        for (let i = CHUNK_FIELDS; i < data.length; i += 2) {
          const code = data[i];
          const field = code % CHUNK_FIELDS;
          const g = local[(code - field) / CHUNK_FIELDS];
          if (field === 0) names++;
          if (mark[g] !== row + 1) {
            mark[g] = row + 1;
            df[g]++;
          }
        }
        for (let i = 0; i < t.p.length; i += 2) {
          const g = local[t.p[i]];
          if (mark[g] !== row + 1) {
            mark[g] = row + 1;
            df[g]++;
          }
        }
        nameStart[row + 1] = names;
      }
    }
  }

  /** The arrays, sized by the counts (once, before the first {@link fill}). */
  private allocate() {
    const { size, lenSum, nameStart } = this;
    const terms = this.vocab.size;
    const termStart = new Uint32Array(terms + 1);
    for (let g = 0; g < terms; g++) termStart[g + 1] = termStart[g] + this.df[g];
    this.df = new Uint32Array(0);
    for (let r = 0; r < size; r++) nameStart[r + 1] += nameStart[r];
    const postings = termStart[terms];
    return this.filled = {
      avg: Array.from(lenSum, (s) => (size ? s / size : 0) || 1),
      termStart,
      fillAt: termStart.slice(0, terms),
      docs: new Uint32Array(postings),
      sat: new Float32Array(postings),
      names: new Uint32Array(nameStart[size]),
      acc: new Float64Array(terms),
      touched: new Uint32Array(terms),
    };
  }

  /**
   * Pass 2: per row, each term's field-weighted frequency, summed over fields in the order
   * of the row's pairs and then the path, saturated, written at its term's next place.
   */
  fill(key: string, t: TermsLike): void {
    if (!this.pending.delete(key)) return;
    const files = this.filesOf(key, t);
    if (!files.length) return;
    const { params, vocab, nameStart, mark } = this;
    const { avg, fillAt, docs, sat, names, acc, touched } = this.filled ?? this.allocate();
    const local = new Uint32Array(t.v.length);
    for (let i = 0; i < t.v.length; i++) local[i] = vocab.get(t.v[i])!;
    let pathLen = 0;
    for (let i = 1; i < t.p.length; i += 2) pathLen += t.p[i];
    const pNorm = params.weights[PATH] /
      (1 - params.b[PATH] + params.b[PATH] * pathLen / avg[PATH]);
    const norm = new Float64Array(CHUNK_FIELDS);
    for (const f of files) {
      for (let r = 0; r < f.rows; r++) {
        const row = f.start + r;
        const data = t.c[r];
        for (let k = 0; k < CHUNK_FIELDS; k++) {
          norm[k] = params.weights[k] / (1 - params.b[k] + params.b[k] * data[k] / avg[k]);
        }
        let n = 0;
        let name = nameStart[row];
        const stamp = -(row + 1);
        for (let i = CHUNK_FIELDS; i < data.length; i += 2) {
          const code = data[i];
          const field = code % CHUNK_FIELDS;
          const g = local[(code - field) / CHUNK_FIELDS];
          if (field === 0) names[name++] = g;
          if (mark[g] !== stamp) {
            mark[g] = stamp;
            touched[n++] = g;
            acc[g] = 0;
          }
          acc[g] += data[i + 1] * norm[field];
        }
        for (let i = 0; i < t.p.length; i += 2) {
          const g = local[t.p[i]];
          if (mark[g] !== stamp) {
            mark[g] = stamp;
            touched[n++] = g;
            acc[g] = 0;
          }
          acc[g] += t.p[i + 1] * pNorm;
        }
        for (let j = 0; j < n; j++) {
          const g = touched[j];
          const tf = acc[g];
          const at = fillAt[g]++;
          docs[at] = row;
          sat[at] = tf / (params.k1 + tf);
        }
      }
    }
  }

  /** The built arrays (after both passes). */
  built(): BuiltLexical {
    const { avg: _, termStart, docs, sat, names } = this.filled ?? this.allocate();
    this.filled = null;
    this.mark = new Int32Array(0);
    // The terms as a list, the map's table let go before the caller lays out the term
    // table (the Linux kernel: 3.9 M terms, the last peak of the build).
    const terms = [...this.vocab.keys()];
    this.vocab.clear();
    if (this.size > COLLECT_ABOVE_ROWS) collectGarbage();
    return {
      size: this.size,
      vocab: { keys: () => terms },
      termStart,
      docs,
      sat,
      nameStart: this.nameStart,
      names,
    };
  }
}

/**
 * Builds the arrays of the index from `source`, one file's terms at a time.
 *
 * @example
 * ```ts
 * const built = await buildFrom({ files, each: (visit) => visit(key, terms) }, size, params);
 * ```
 */
export async function buildFrom(
  source: TermsSource,
  size: number,
  params: Bm25Params,
): Promise<BuiltLexical> {
  const b = new LexicalBuilder(source.files, size, params);
  // Each pass's garbage (every file's decoded terms) goes before the next allocations, in a
  // large build (a small one, a server's after each edit, is not worth a full collection).
  const collect = size > COLLECT_ABOVE_ROWS ? collectGarbage : () => {};
  await source.each((key, t) => b.count(key, t));
  collect();
  await source.each((key, t) => b.fill(key, t));
  collect();
  return b.built();
}
