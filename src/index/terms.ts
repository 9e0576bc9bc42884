/**
 * Per-file lexical term statistics: computed where a file is parsed (the indexing worker),
 * stored beside its symbols and chunks as the blob part `terms`, and assembled into the
 * in-memory BM25F index (`lexical.ts`) per generation. Content-addressed like the rest of
 * the blob, so posting data of unchanged files is never recomputed.
 *
 * @module
 */

import type { ChunkRecord, SymbolRecord } from "../types.ts";
import { codeTokens, type TokenCache } from "../util/tokens.ts";

/** The fields of a chunk, each with its own weight and length normalisation. */
export const Field = { Name: 0, Signature: 1, Doc: 2, Body: 3, Path: 4 } as const;
/** One of the fields. */
export type Field = (typeof Field)[keyof typeof Field];
/** Number of fields. */
export const FIELD_COUNT = 5;
/** Fields stored per chunk (the path is stored once per file). */
const CHUNK_FIELDS = 4;

/**
 * Term statistics of one file, compact for storage.
 * - `v`: the file's vocabulary (terms);
 * - `p`: the path field, pairs `[term index, tf]`;
 * - `c`: per chunk (in blob order) `[len name, len signature, len doc, len body, then pairs
 *   (term index × 4 + field, tf)…]`.
 */
export interface FileTerms {
  v: string[];
  p: number[];
  c: number[][];
}

/**
 * Lines that are comments in most languages (the chunker uses the same idea), each matched
 * whole. Leading blank lines may join a match (`\s` crosses line ends); they hold no tokens.
 */
const COMMENT_LINES = /^\s*(?:#(?!include|define|if|!\[)|\/\/|\/\*|\*|--|;;).*$/gm;

/** `counts` copied into an array that holds index `i`. */
function grown(counts: Int32Array, i: number): Int32Array {
  let size = counts.length * 2;
  while (size <= i) size *= 2;
  const out = new Int32Array(size);
  out.set(counts);
  return out;
}

/** A chunk's own symbol: the one it is named after whose span overlaps it. */
function ownSymbol(
  chunk: ChunkRecord,
  byName: ReadonlyMap<string, SymbolRecord[]>,
): SymbolRecord | undefined {
  if (chunk.symbol === null) return undefined;
  const named = byName.get(chunk.symbol);
  if (!named) return undefined;
  for (const s of named) {
    if (s.startLine <= chunk.endLine && s.endLine >= chunk.startLine) return s;
  }
  return named[0];
}

/** Symbols by qualified name, in source order. */
function byQualifiedName(symbols: SymbolRecord[]): Map<string, SymbolRecord[]> {
  const out = new Map<string, SymbolRecord[]>();
  for (const s of symbols) {
    const list = out.get(s.qualifiedName);
    if (list) list.push(s);
    else out.set(s.qualifiedName, [s]);
  }
  return out;
}

/** The first index of `sorted` (by `line`) whose line is at least `line`. */
function firstAtOrAfter(sorted: SymbolRecord[], line: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid].line < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Computes the term statistics of a file's chunks.
 *
 * @example
 * ```ts
 * const terms = fileTerms("src/config.py", chunks, symbols);
 * terms.c.length === chunks.length; // true
 * ```
 */
export function fileTerms(
  path: string,
  chunks: ChunkRecord[],
  symbols: SymbolRecord[],
): FileTerms {
  const texts = fieldTexts(chunks, symbols);
  // Every text tokenised in one place: the path, then each chunk's fields.
  const cache: TokenCache = new Map();
  const pathTokens = codeTokens(path.replace(/\.[^./]+$/, ""), [], cache);
  const tokens = texts.map((fields) =>
    fields.map((list) => {
      const out: string[] = [];
      for (const text of list) codeTokens(text, out, cache);
      return out;
    })
  );

  const vocab = new Map<string, number>();
  const v: string[] = [];
  const id = (t: string) => {
    let i = vocab.get(t);
    if (i === undefined) {
      i = v.length;
      vocab.set(t, i);
      v.push(t);
    }
    return i;
  };
  const p = pairs(pathTokens.map(id));
  const c: number[][] = [];
  // Counts by term index, reused field after field: `seen` lists the terms counted.
  let counts: Int32Array = new Int32Array(256);
  const seen: number[] = [];
  for (const fields of tokens) {
    const row: number[] = fields.map((f) => f.length);
    for (let f = 0; f < CHUNK_FIELDS; f++) {
      for (const t of fields[f]) {
        const i = id(t);
        if (i >= counts.length) counts = grown(counts, i);
        if (counts[i]++ === 0) seen.push(i);
      }
      for (const i of seen) {
        row.push(i * CHUNK_FIELDS + f, counts[i]);
        counts[i] = 0;
      }
      seen.length = 0;
    }
    c.push(row);
  }
  return { v, p, c };
}

/**
 * The texts of each chunk's fields, in order: its own symbol's name (else the last part of
 * the symbol it is named after), the signatures of its symbols (its own symbol's parent
 * first), their docs and its comment lines, its text.
 */
function fieldTexts(chunks: ChunkRecord[], symbols: SymbolRecord[]): string[][][] {
  // Symbols by the line that holds their name, for chunks that contain several.
  const byLine = [...symbols].sort((a, b) => a.line - b.line);
  const byName = byQualifiedName(symbols);
  return chunks.map((chunk) => {
    const fields: string[][] = Array.from({ length: CHUNK_FIELDS }, () => []);
    const own = ownSymbol(chunk, byName);
    if (own) {
      fields[Field.Name].push(own.name);
      if (own.parent) fields[Field.Signature].push(own.parent);
    } else if (chunk.symbol) {
      fields[Field.Name].push(chunk.symbol.split(".").pop() ?? "");
    }
    for (let i = firstAtOrAfter(byLine, chunk.startLine); i < byLine.length; i++) {
      const s = byLine[i];
      if (s.line > chunk.endLine) break;
      fields[Field.Signature].push(s.signature || s.name);
      if (s.doc) fields[Field.Doc].push(s.doc);
    }
    // Only the comment lines become strings (a split would make one per line).
    for (const m of chunk.text.matchAll(COMMENT_LINES)) fields[Field.Doc].push(m[0]);
    fields[Field.Body].push(chunk.text);
    return fields;
  });
}

/** The first word of a binary `terms` part: "TRM1" (32-bit numbers), "TRM2" (16-bit); JSON starts `{`. */
const TERMS_MAGIC_32 = 0x314d5254;
const TERMS_MAGIC_16 = 0x324d5254;
const HEADER_WORDS = 5;
const HEADER_BYTES = HEADER_WORDS * 4;
const termsEncoder = new TextEncoder();
const termsDecoder = new TextDecoder();

/** A file's term statistics as read from a binary part: views, no copy of the numbers. */
export interface PackedTerms {
  v: string[];
  p: Uint32Array | Uint16Array;
  c: (Uint32Array | Uint16Array)[];
}

/** Whether every number of `t` (path pairs, row lengths, rows) fits in 16 bits. */
function fits16(t: FileTerms): boolean {
  for (const n of t.p) if (n > 0xffff) return false;
  for (const row of t.c) {
    if (row.length > 0xffff) return false;
    for (const n of row) if (n > 0xffff) return false;
  }
  return true;
}

/**
 * {@link FileTerms} as bytes: five little-endian 32-bit words `[magic, vocabulary size,
 * rows, path numbers, vocabulary bytes]`, then the numbers — the path pairs, each row's
 * length, the rows one after the other — as 16-bit words when every one of them fits
 * ("TRM2": most files; about half the bytes) else as 32-bit words ("TRM1"), then the
 * vocabulary as UTF-8 joined by `\n` (a term is a code token and holds none). A reader
 * takes views of the numbers and decodes the vocabulary in one call.
 *
 * @example
 * ```ts
 * decodeTerms(encodeTerms({ v: ["parse", "json"], p: [0, 1], c: [[1, 0, 0, 1, 0, 1, 7, 1]] }))
 *   .v; // ["parse", "json"]
 * ```
 */
export function encodeTerms(t: FileTerms): Uint8Array {
  const vocab = termsEncoder.encode(t.v.join("\n"));
  let numbers = t.p.length + t.c.length;
  for (const row of t.c) numbers += row.length;
  const narrow = fits16(t);
  const width = narrow ? 2 : 4;
  const out = new Uint8Array(HEADER_BYTES + numbers * width + vocab.length);
  const head = new Uint32Array(out.buffer, 0, HEADER_WORDS);
  head[0] = narrow ? TERMS_MAGIC_16 : TERMS_MAGIC_32;
  head[1] = t.v.length;
  head[2] = t.c.length;
  head[3] = t.p.length;
  head[4] = vocab.length;
  const w = narrow
    ? new Uint16Array(out.buffer, HEADER_BYTES, numbers)
    : new Uint32Array(out.buffer, HEADER_BYTES, numbers);
  let at = 0;
  w.set(t.p, at);
  at += t.p.length;
  for (const row of t.c) w[at++] = row.length;
  for (const row of t.c) {
    w.set(row, at);
    at += row.length;
  }
  out.set(vocab, HEADER_BYTES + numbers * width);
  return out;
}

/** The width of a binary part's numbers (2 or 4 bytes), or 0 when the bytes are no binary part. */
function binaryWidth(bytes: Uint8Array): number {
  if (
    bytes.length < HEADER_BYTES || bytes[0] !== 0x54 || bytes[1] !== 0x52 || bytes[2] !== 0x4d
  ) {
    return 0;
  }
  return bytes[3] === 0x32 ? 2 : bytes[3] === 0x31 ? 4 : 0;
}

/** Whether a stored `terms` part is binary ({@link encodeTerms}) rather than JSON. */
export function isBinaryTerms(bytes: Uint8Array): boolean {
  return binaryWidth(bytes) !== 0;
}

/**
 * Reads a part written by {@link encodeTerms}; throws on bytes of another shape. Without
 * `vocabulary`, `v` is left empty (a reader that knows the terms' ids by other means).
 */
export function decodeTerms(bytes: Uint8Array, vocabulary = true): PackedTerms {
  const width = binaryWidth(bytes);
  if (width === 0) throw new Error("not a binary terms part: re-index the project");
  if (bytes.byteOffset % 4 !== 0) bytes = bytes.slice();
  const head = new Uint32Array(bytes.buffer, bytes.byteOffset, HEADER_WORDS);
  const [, vocabSize, rows, pathNumbers, vocabBytes] = head;
  const wrong = () => new Error("a binary terms part has the wrong length: re-index the project");
  const view = (from: number, length: number) => {
    const at = bytes.byteOffset + HEADER_BYTES + from * width;
    if (HEADER_BYTES + (from + length) * width > bytes.length) throw wrong();
    return width === 2
      ? new Uint16Array(bytes.buffer, at, length)
      : new Uint32Array(bytes.buffer, at, length);
  };
  const lens = view(pathNumbers, rows);
  let numbers = pathNumbers + rows;
  for (let r = 0; r < rows; r++) numbers += lens[r];
  if (HEADER_BYTES + numbers * width + vocabBytes !== bytes.length) throw wrong();
  const all = view(0, numbers);
  const c: (Uint32Array | Uint16Array)[] = new Array(rows);
  let at = pathNumbers + rows;
  for (let r = 0; r < rows; r++) {
    c[r] = all.subarray(at, at + lens[r]);
    at += lens[r];
  }
  const text = HEADER_BYTES + numbers * width;
  if (!vocabulary) return { v: [], p: all.subarray(0, pathNumbers), c };
  const v = vocabSize === 0
    ? []
    : termsDecoder.decode(bytes.subarray(text, text + vocabBytes)).split("\n");
  if (v.length !== vocabSize) {
    throw new Error("a binary terms part is damaged: re-index the project");
  }
  return { v, p: all.subarray(0, pathNumbers), c };
}

function pairs(ids: number[]): number[] {
  const counts = new Map<number, number>();
  for (const i of ids) counts.set(i, (counts.get(i) ?? 0) + 1);
  const out: number[] = [];
  for (const [i, n] of counts) out.push(i, n);
  return out;
}
