/**
 * Builds the BM25F index (`lexical.ts`) from the per-file `terms` parts in two passes over
 * them, holding only one file's terms at a time: the first counts (the vocabulary, each
 * term's rows, each field's length, each row's name terms), the second writes every
 * posting straight into its final place. Memory is the finished arrays and the vocabulary,
 * not the terms of every file (1.4 M chunks of the Linux kernel: several GB as objects).
 * The first pass can also run while an indexing run writes the terms ({@link TermCounter}):
 * then only the second reads them back, without their vocabularies.
 *
 * @module
 */

import { FIELD_COUNT } from "../index/terms.ts";
import type { Bm25Params } from "./bm25.ts";
import { grow } from "../index/columns_io.ts";
import { releaseFreedMemory } from "../util/native_heap.ts";

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
 * it is called twice, or once with `vocabulary` false when `counted` holds the first pass
 * of these files (then a key's `v` may be left empty: its terms' ids are in the counts).
 */
export interface TermsSource {
  files: readonly TermsFile[];
  each(
    visit: (key: string, terms: TermsLike) => void,
    vocabulary?: boolean,
  ): Promise<void> | void;
  /** The first pass, made while the terms were written ({@link TermCounter}). */
  counted?: TermCounts;
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
 * What the first pass adds to: each term's rows, field lengths, and per term of the file at
 * hand (by its index in the file: a small array, not one the size of the vocabulary) the
 * last row that counted it.
 */
interface Tally {
  df: Uint32Array;
  mark: Int32Array;
  lenSum: Float64Array;
}

/** The ids in `vocab` of a file's terms (new terms added with the next ids when `add`). */
function globalIds(
  vocab: Map<string, number>,
  v: ArrayLike<string>,
  add = true,
): Uint32Array {
  const local = new Uint32Array(v.length);
  for (let i = 0; i < v.length; i++) {
    let g = vocab.get(v[i]);
    if (g === undefined && add) vocab.set(v[i], g = vocab.size);
    local[i] = g!;
  }
  return local;
}

/** The summed term frequencies of a file's path (its path field's length). */
function pathLength(t: TermsLike): number {
  let n = 0;
  for (let i = 1; i < t.p.length; i += 2) n += t.p[i];
  return n;
}

/**
 * Counts row `r` of `t` (terms mapped to ids by `local`; `stamp`, unique per row, marks the
 * terms it counted in `mark`, which holds the file's terms): its field lengths, each
 * distinct term's row (its own and its path's). Returns how many name terms the row has.
 */
function countRow(
  t: TermsLike,
  r: number,
  local: ArrayLike<number>,
  pathLen: number,
  stamp: number,
  { df, mark, lenSum }: Tally,
): number {
  const data = t.c[r];
  for (let k = 0; k < CHUNK_FIELDS; k++) lenSum[k] += data[k];
  lenSum[PATH] += pathLen;
  let names = 0;
  for (let i = CHUNK_FIELDS; i < data.length; i += 2) {
    const code = data[i];
    const field = code % CHUNK_FIELDS;
    const l = (code - field) / CHUNK_FIELDS;
    if (field === 0) names++;
    if (mark[l] !== stamp) {
      mark[l] = stamp;
      df[local[l]]++;
    }
  }
  for (let i = 0; i < t.p.length; i += 2) {
    const l = t.p[i];
    if (mark[l] !== stamp) {
      mark[l] = stamp;
      df[local[l]]++;
    }
  }
  return names;
}

/**
 * The first pass over a set of files' terms, made while an indexing run writes them
 * ({@link TermCounter}): transferable arrays, handed to the build of the second pass.
 * Key `i` has `rows[i]` rows, whose name-term counts are `names` from `namesAt[i]`, and
 * `vocabSizes[i]` terms, whose ids are `blocks[mapBlock[i]]` from `mapAt[i]`.
 */
export interface TermCounts {
  /** The vocabulary in id order, UTF-8, each term followed by `\n`. */
  vocab: Uint8Array;
  terms: number;
  df: Uint32Array;
  lenSum: Float64Array;
  keys: string[];
  rows: Uint32Array;
  vocabSizes: Uint32Array;
  mapBlock: Uint32Array;
  mapAt: Uint32Array;
  namesAt: Uint32Array;
  names: Uint32Array;
  blocks: Uint32Array[];
}

/** The terms of counts, in id order. */
function termsOf(counts: TermCounts): string[] {
  const text = new TextDecoder().decode(counts.vocab);
  return counts.terms === 0 ? [] : text.slice(0, -1).split("\n");
}

/** Term ids are kept in blocks of this many (no block copied as the counts grow). */
const MAP_BLOCK = 1 << 22;

/**
 * The first pass of the build ({@link LexicalBuilder.count}) over files' terms as they come,
 * before their rows' places are known: the vocabulary, each term's rows, the field lengths,
 * each row's name terms, and each file's term ids (so that the second pass reads the
 * numbers alone). Files without rows are left out, as the build leaves them; a key comes once.
 */
export class TermCounter implements Tally {
  private readonly vocab = new Map<string, number>();
  df = new Uint32Array(0);
  mark = new Int32Array(0);
  readonly lenSum = new Float64Array(FIELD_COUNT);
  private readonly keys: string[] = [];
  private readonly seen = new Set<string>();
  private rows = new Uint32Array(1024);
  private vocabSizes = new Uint32Array(1024);
  private mapBlock = new Uint32Array(1024);
  private mapAt = new Uint32Array(1024);
  private namesAt = new Uint32Array(1024);
  private names = new Uint32Array(1 << 16);
  private namesLen = 0;
  private readonly blocks: Uint32Array[] = [];
  private blockLen = MAP_BLOCK;
  private stamp = 0;

  /** Counts one key's terms (once per key). */
  add(key: string, t: TermsLike): void {
    const rows = t.c.length;
    if (rows === 0 || this.seen.has(key)) return;
    this.seen.add(key);
    const i = this.keys.length;
    this.keys.push(key);
    const local = globalIds(this.vocab, t.v);
    if (this.blockLen + local.length > MAP_BLOCK) {
      this.blocks.push(new Uint32Array(Math.max(MAP_BLOCK, local.length)));
      this.blockLen = 0;
    }
    this.blocks[this.blocks.length - 1].set(local, this.blockLen);
    this.rows = grow(this.rows, i + 1);
    this.vocabSizes = grow(this.vocabSizes, i + 1);
    this.mapBlock = grow(this.mapBlock, i + 1);
    this.mapAt = grow(this.mapAt, i + 1);
    this.namesAt = grow(this.namesAt, i + 1);
    this.rows[i] = rows;
    this.vocabSizes[i] = local.length;
    this.mapBlock[i] = this.blocks.length - 1;
    this.mapAt[i] = this.blockLen;
    this.blockLen += local.length;
    this.namesAt[i] = this.namesLen;
    this.names = grow(this.names, this.namesLen + rows);
    this.df = grow(this.df, this.vocab.size);
    this.mark = grow(this.mark, local.length);
    const pathLen = pathLength(t);
    for (let r = 0; r < rows; r++) {
      this.names[this.namesLen++] = countRow(t, r, local, pathLen, ++this.stamp, this);
    }
  }

  /** The counts so far (the counter is spent: its vocabulary map is let go). */
  counts(): TermCounts {
    const n = this.keys.length;
    const terms = this.vocab.size;
    const text = [...this.vocab.keys()].join("\n");
    this.vocab.clear();
    this.mark = new Int32Array(0);
    return {
      vocab: new TextEncoder().encode(terms ? text + "\n" : ""),
      terms,
      df: this.df.slice(0, terms),
      lenSum: this.lenSum.slice(),
      keys: this.keys,
      rows: this.rows.slice(0, n),
      vocabSizes: this.vocabSizes.slice(0, n),
      mapBlock: this.mapBlock.slice(0, n),
      mapAt: this.mapAt.slice(0, n),
      namesAt: this.namesAt.slice(0, n),
      names: this.names.slice(0, this.namesLen),
      blocks: this.blocks,
    };
  }
}

/**
 * The two passes over the terms: {@link count} every file's terms, then {@link fill} every
 * file's terms again (each key once per pass, in any order), then {@link built}.
 */
export class LexicalBuilder {
  private readonly byKey = new Map<string, TermsFile[]>();
  /** The vocabulary (null when the first pass came as {@link TermCounts}). */
  private vocab: Map<string, number> | null = new Map<string, number>();
  private counts: { counts: TermCounts; at: Map<string, number> } | null = null;
  df = new Uint32Array(0);
  /** Per term of the file at hand, the last row that counted it (+1; negated in the second pass). */
  mark = new Int32Array(0);
  /** Per term of the file at hand, its row's weighted frequency, and the terms a row has. */
  private acc = new Float64Array(0);
  private touched = new Uint32Array(0);
  readonly lenSum = new Float64Array(FIELD_COUNT);
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
    if (!files.length || this.pending.has(key) || !this.vocab) return;
    this.pending.add(key);
    const local = globalIds(this.vocab, t.v);
    this.df = grow(this.df, this.vocab.size);
    this.mark = grow(this.mark, local.length);
    const pathLen = pathLength(t);
    for (const f of files) {
      for (let r = 0; r < f.rows; r++) {
        this.nameStart[f.start + r + 1] = countRow(t, r, local, pathLen, f.start + r + 1, this);
      }
    }
  }

  /**
   * A builder whose first pass was made while the terms were written: null unless `counts`
   * holds exactly the keys of `files`, each with its rows, one file each (else the caller
   * counts from the terms).
   */
  static fromCounts(
    files: readonly TermsFile[],
    size: number,
    params: Bm25Params,
    counts: TermCounts,
  ): LexicalBuilder | null {
    const b = new LexicalBuilder(files, size, params);
    if (b.byKey.size !== files.length || b.byKey.size !== counts.keys.length) return null;
    const at = new Map<string, number>();
    counts.keys.forEach((k, i) => at.set(k, i));
    for (const f of files) {
      const i = at.get(f.key);
      if (i === undefined || counts.rows[i] !== f.rows) return null;
      const names = counts.names.subarray(counts.namesAt[i], counts.namesAt[i] + f.rows);
      b.nameStart.set(names, f.start + 1);
      b.pending.add(f.key);
    }
    b.vocab = null;
    b.counts = { counts, at };
    b.df = new Uint32Array(counts.df);
    b.lenSum.set(counts.lenSum);
    return b;
  }

  /** The ids of `key`'s terms: from the counts, or the vocabulary's. */
  private localIds(key: string, t: TermsLike): ArrayLike<number> {
    if (!this.counts) return globalIds(this.vocab!, t.v, false);
    const { counts, at } = this.counts;
    const i = at.get(key)!;
    const block = counts.blocks[counts.mapBlock[i]];
    return block.subarray(counts.mapAt[i], counts.mapAt[i] + counts.vocabSizes[i]);
  }

  /** The arrays, sized by the counts (once, before the first {@link fill}). */
  private allocate() {
    const { size, lenSum, nameStart } = this;
    const terms = this.vocab?.size ?? this.counts!.counts.terms;
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
    const { params, nameStart } = this;
    const { avg, fillAt, docs, sat, names } = this.filled ?? this.allocate();
    const local = this.localIds(key, t);
    const mark = this.mark = grow(this.mark, local.length);
    const acc = this.acc = grow(this.acc, local.length);
    const touched = this.touched = grow(this.touched, local.length);
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
          const l = (code - field) / CHUNK_FIELDS;
          if (field === 0) names[name++] = local[l];
          if (mark[l] !== stamp) {
            mark[l] = stamp;
            touched[n++] = l;
            acc[l] = 0;
          }
          acc[l] += data[i + 1] * norm[field];
        }
        for (let i = 0; i < t.p.length; i += 2) {
          const l = t.p[i];
          if (mark[l] !== stamp) {
            mark[l] = stamp;
            touched[n++] = l;
            acc[l] = 0;
          }
          acc[l] += t.p[i + 1] * pNorm;
        }
        for (let j = 0; j < n; j++) {
          const l = touched[j];
          const tf = acc[l];
          const at = fillAt[local[l]]++;
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
    this.acc = new Float64Array(0);
    this.touched = new Uint32Array(0);
    // The terms as a list, the map's table let go before the caller lays out the term
    // table (the Linux kernel: 3.9 M terms, the last peak of the build).
    const terms = this.vocab ? [...this.vocab.keys()] : termsOf(this.counts!.counts);
    this.vocab?.clear();
    if (this.counts) {
      // Whoever handed the counts over may hold them a while yet: their arrays go now.
      const spent = this.counts.counts;
      spent.blocks = [];
      spent.names = new Uint32Array(0);
      spent.vocab = new Uint8Array(0);
    }
    this.counts = null;
    if (this.size > COLLECT_ABOVE_ROWS) releaseFreedMemory();
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
  const counted = source.counted &&
    LexicalBuilder.fromCounts(source.files, size, params, source.counted);
  const b = counted || new LexicalBuilder(source.files, size, params);
  // Each pass's garbage (every file's decoded terms) goes before the next allocations, in a
  // large build (a small one, a server's after each edit, is not worth a full collection).
  const collect = size > COLLECT_ABOVE_ROWS ? releaseFreedMemory : () => {};
  if (!counted) {
    await source.each((key, t) => b.count(key, t));
    collect();
  }
  await source.each((key, t) => b.fill(key, t), !counted);
  collect();
  return b.built();
}
