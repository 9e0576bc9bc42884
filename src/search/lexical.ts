/**
 * BM25F over chunks: per-field term frequencies (name, signature, doc, body, path), each
 * field weighted and length-normalised on its own, then one saturation per term. Built in
 * memory, per generation, from the per-file `terms` blob parts (`terms.ts`).
 *
 * @module
 */

import type { FileTerms } from "../index/terms.ts";
import type { ListedRows } from "./top_k.ts";
import {
  buildFrom,
  type BuiltLexical,
  LexicalBuilder,
  type TermsFile,
  type TermsSource,
} from "./lexical_build.ts";

export { type Bm25Params, DEFAULT_BM25 } from "./bm25.ts";
import type { Bm25Params } from "./bm25.ts";
import { DEFAULT_BM25 } from "./bm25.ts";

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
   * `weights` (parallel to `terms`, default 1 each) scale each term's share. With
   * `listed`, appends to it each row whose score rises above 0 (once: every share is
   * positive, so a score only grows), for `topKPositive` to read those rows alone.
   */
  score(
    terms: readonly string[],
    out: Float32Array,
    cover?: Float32Array,
    weights?: readonly number[],
    listed?: ListedRows,
  ): number;
  /** Term ids of a row's name field. */
  nameTerms(row: number): Uint32Array;
  /** The id of a term, or -1. */
  termId(term: string): number;
  /** In how many rows a term occurs. */
  df(term: string): number;
  /** The rows a term occurs in, once each (a view of the index: not to be written). */
  rows(term: string): Uint32Array;
  /** Whether every term's {@link rows} are in ascending order (checked once, when asked). */
  rowsSorted(): boolean;
  /** The index as bytes, for {@link decodeLexicalIndex} (`key` names what it was built from). */
  encode(key: string): Uint8Array;
  /** The same bytes in pieces, most of them views of the index's arrays (nothing copied). */
  encodeParts(key: string): Uint8Array[];
}

/** The arrays of an index: what it is built into, and what is stored. */
interface LexicalData {
  size: number;
  params: Bm25Params;
  /** Term ids. */
  terms: TermLookup;
  /** Per term id, where its postings start in `docs`/`sat` (one more entry at the end). */
  termStart: Uint32Array;
  /** Postings: the row, and the row's saturated, field-weighted term frequency. */
  docs: Uint32Array;
  sat: Float32Array;
  /** Per row, where its name-field term ids start in `names` (one more at the end). */
  nameStart: Uint32Array;
  names: Uint32Array;
}

/** The terms of an index: their ids, and the table they are stored as. */
interface TermLookup {
  /** The id of a term, or -1. */
  id(term: string): number;
  table(): TermTable;
}

/**
 * Terms as stored: UTF-8 `bytes` (term `g` is `bytes[offsets[g] .. offsets[g + 1] - 1)`,
 * a newline after each) and an open-addressing hash table `slots` (a power of two, at
 * least twice the terms; id + 1 per used slot, 0 free) over each term's FNV-1a hash.
 */
interface TermTable {
  bytes: Uint8Array;
  offsets: Uint32Array;
  slots: Uint32Array;
}

function fnvBytes(b: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) {
    h ^= b[i];
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The stored table of terms given in id order. */
function termTable(vocab: readonly string[]): TermTable {
  // One string for the whole vocabulary (no string per term: a kernel has millions).
  const bytes = new TextEncoder().encode(vocab.length ? vocab.join("\n") + "\n" : "");
  const offsets = new Uint32Array(vocab.length + 1);
  let g = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) offsets[++g] = i + 1;
  let size = 2;
  while (size < vocab.length * 2) size *= 2;
  const slots = new Uint32Array(size);
  for (let id = 0; id < vocab.length; id++) {
    let at = fnvBytes(bytes, offsets[id], offsets[id + 1] - 1) & (size - 1);
    while (slots[at] !== 0) at = (at + 1) & (size - 1);
    slots[at] = id + 1;
  }
  return { bytes, offsets, slots };
}

/** Lookup in a stored table: the query term's bytes hashed and compared, no strings made. */
function tableLookup(t: TermTable): TermLookup {
  const encoder = new TextEncoder();
  let scratch = new Uint8Array(256);
  const mask = t.slots.length - 1;
  return {
    table: () => t,
    id(term) {
      if (scratch.length < term.length * 3) scratch = new Uint8Array(term.length * 3);
      const n = encoder.encodeInto(term, scratch).written;
      let at = fnvBytes(scratch, 0, n) & mask;
      for (let probes = 0; probes <= mask; probes++, at = (at + 1) & mask) {
        const slot = t.slots[at];
        if (slot === 0) return -1;
        const s = t.offsets[slot - 1];
        if (t.offsets[slot] - 1 - s !== n) continue;
        let same = true;
        for (let i = 0; i < n && same; i++) same = t.bytes[s + i] === scratch[i];
        if (same) return slot - 1;
      }
      return -1;
    },
  };
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
  const placed: TermsFile[] = [];
  let size = 0;
  for (const f of files) {
    placed.push({ key: String(placed.length), start: size, rows: f.rows });
    size += f.rows;
  }
  const b = new LexicalBuilder(placed, size, params);
  files.forEach((f, i) => f.terms && b.count(String(i), f.terms));
  files.forEach((f, i) => f.terms && b.fill(String(i), f.terms));
  return builtIndex(b.built(), params);
}

/**
 * Builds the index from terms handed over one file at a time (twice), so that only one
 * file's terms are held at once (see `lexical_build.ts`).
 *
 * @example
 * ```ts
 * const lex = await buildLexicalIndexFrom({ files, each: (visit) => visit(key, terms) }, size);
 * ```
 */
export async function buildLexicalIndexFrom(
  source: TermsSource,
  size: number,
  params: Bm25Params = DEFAULT_BM25,
): Promise<LexicalIndex> {
  return builtIndex(await buildFrom(source, size, params), params);
}

function builtIndex(b: BuiltLexical, params: Bm25Params): LexicalIndex {
  return lexicalIndex({
    size: b.size,
    params,
    // The stored form of the terms (one text, offsets, a hash table) rather than the Map
    // they were numbered with: a fraction of its memory over millions of terms.
    terms: tableLookup(termTable([...b.vocab.keys()])),
    termStart: b.termStart,
    docs: b.docs,
    sat: b.sat,
    nameStart: b.nameStart,
    names: b.names,
  });
}

/** The queryable index over its arrays. */
function lexicalIndex(data: LexicalData): LexicalIndex {
  const { size, params, terms, termStart, docs, sat, nameStart, names } = data;
  const idf = (df: number) => Math.log(1 + (size - df + 0.5) / (df + 0.5));
  let sorted: boolean | null = null;
  return {
    size,
    params,
    termId: (term) => terms.id(term),
    df: (term) => {
      const g = terms.id(term);
      return g < 0 ? 0 : termStart[g + 1] - termStart[g];
    },
    rows: (term) => {
      const g = terms.id(term);
      return g < 0 ? docs.subarray(0, 0) : docs.subarray(termStart[g], termStart[g + 1]);
    },
    rowsSorted: () => sorted ??= ascendingRuns(termStart, docs),
    nameTerms: (r) => names.subarray(nameStart[r], nameStart[r + 1]),
    score(query, out, cover, weights, listed) {
      const qtf = new Map<number, number>();
      query.forEach((term, k) => {
        const g = terms.id(term);
        if (g >= 0) qtf.set(g, (qtf.get(g) ?? 0) + (weights?.[k] ?? 1));
      });
      let max = 0;
      for (const [g, q] of qtf) {
        const s = termStart[g];
        const e = termStart[g + 1];
        const w = idf(e - s) * q;
        max += w;
        if (listed) {
          const rows = listed.rows;
          let count = listed.count;
          for (let i = s; i < e; i++) {
            const d = docs[i];
            const o = out[d];
            out[d] = o + w * sat[i];
            if (o === 0 && out[d] > 0) rows[count++] = d;
          }
          listed.count = count;
        } else for (let i = s; i < e; i++) out[docs[i]] += w * sat[i];
        if (cover) {
          // A repeated word counts once; a variant (weight < 1) counts its share.
          const c = idf(e - s) * Math.min(1, q);
          for (let i = s; i < e; i++) cover[docs[i]] += c;
        }
      }
      return max;
    },
    encode: (key) => {
      const parts = encodeData(data, key);
      const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) out.set(p, (at += p.length) - p.length);
      return out;
    },
    encodeParts: (key) => encodeData(data, key),
  };
}

/**
 * Whether each run `docs[starts[g] .. starts[g + 1])` ascends (a builder fills a term's rows
 * in the order it is handed the files, which is the table's as a rule).
 */
function ascendingRuns(starts: Uint32Array, docs: Uint32Array): boolean {
  for (let g = 0; g + 1 < starts.length; g++) {
    for (let i = starts[g] + 1; i < starts[g + 1]; i++) if (docs[i] <= docs[i - 1]) return false;
  }
  return true;
}

/** First bytes of an encoded index, and its layout version (bump when the layout changes). */
const MAGIC = 0x584c5843; // "CXLX", little-endian
const LAYOUT = 1;

/** The header of an encoded index. */
interface Header {
  key: string;
  size: number;
  params: Bm25Params;
  /** Lengths of the arrays, in layout order. */
  lengths: number[];
  /** Bytes of the terms' text. */
  text: number;
}

/**
 * Layout: magic, layout, header length (u32 each); the header (JSON); padding to 4 bytes;
 * then `termStart`, `docs`, `sat`, `nameStart`, `names`, the terms' `offsets` and `slots`
 * (little-endian, as typed arrays hold them), and the terms' UTF-8 text.
 */
function encodeData(d: LexicalData, key: string): Uint8Array[] {
  const t = d.terms.table();
  const arrays = [d.termStart, d.docs, d.sat, d.nameStart, d.names, t.offsets, t.slots];
  const header: Header = {
    key,
    size: d.size,
    params: d.params,
    lengths: arrays.map((a) => a.length),
    text: t.bytes.length,
  };
  const head = new TextEncoder().encode(JSON.stringify(header));
  const first = new Uint8Array(12 + Math.ceil(head.length / 4) * 4);
  const view = new DataView(first.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, LAYOUT, true);
  view.setUint32(8, head.length, true);
  first.set(head, 12);
  return [
    first,
    ...arrays.map((a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength)),
    t.bytes,
  ];
}

/**
 * The index stored by `encode`, when `bytes` hold one built from `key` with `params`; null
 * otherwise (another build, another layout, a cut-off file). Every array is a view of
 * `bytes`: nothing is tokenised, parsed or copied (`bytes` must start 4-byte aligned, as a
 * file read is).
 *
 * @example
 * ```ts
 * const lex = decodeLexicalIndex(await Deno.readFile(path), key, DEFAULT_BM25) ?? rebuild();
 * ```
 */
export function decodeLexicalIndex(
  bytes: Uint8Array,
  key: string,
  params: Bm25Params,
): LexicalIndex | null {
  if (bytes.length < 12 || bytes.byteOffset % 4 !== 0) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== LAYOUT) return null;
  const headLength = view.getUint32(8, true);
  if (12 + headLength > bytes.length) return null;
  let h: Header;
  try {
    h = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + headLength)));
  } catch {
    return null;
  }
  if (h.key !== key || JSON.stringify(h.params) !== JSON.stringify(params)) return null;
  if (!Array.isArray(h.lengths) || h.lengths.length !== 7) return null;
  let at = bytes.byteOffset + 12 + Math.ceil(headLength / 4) * 4;
  const end = at + 4 * h.lengths.reduce((n, x) => n + x, 0) + h.text;
  if (end !== bytes.byteOffset + bytes.length) return null;
  const take = (n: number) => {
    const a = new Uint32Array(bytes.buffer, at, n);
    at += 4 * n;
    return a;
  };
  const [nTerms, nDocs, nSat, nNameStart, nNames, nOffsets, nSlots] = h.lengths;
  if (nSat !== nDocs || nSlots < 2 || (nSlots & (nSlots - 1)) !== 0) return null;
  const termStart = take(nTerms);
  const docs = take(nDocs);
  const sat = new Float32Array(bytes.buffer, at, nDocs);
  at += 4 * nDocs;
  const nameStart = take(nNameStart);
  const names = take(nNames);
  const offsets = take(nOffsets);
  const slots = take(nSlots);
  const text = new Uint8Array(bytes.buffer, at, h.text);
  if (nOffsets !== nTerms || nNameStart !== h.size + 1) return null;
  return lexicalIndex({
    size: h.size,
    params,
    terms: tableLookup({ bytes: text, offsets, slots }),
    termStart,
    docs,
    sat,
    nameStart,
    names,
  });
}
