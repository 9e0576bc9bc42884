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
  const cache: TokenCache = new Map();
  const pathTokens = codeTokens(path.replace(/\.[^./]+$/, ""), [], cache);
  const p = pairs(pathTokens.map(id));

  // Symbols by the line that holds their name, for chunks that contain several.
  const byLine = [...symbols].sort((a, b) => a.line - b.line);
  const byName = byQualifiedName(symbols);
  const c: number[][] = [];
  // Counts by term index, reused field after field: `seen` lists the terms counted.
  let counts: Int32Array = new Int32Array(256);
  const seen: number[] = [];
  for (const chunk of chunks) {
    const fields: string[][] = Array.from({ length: CHUNK_FIELDS }, () => []);
    const own = ownSymbol(chunk, byName);
    if (own) {
      codeTokens(own.name, fields[Field.Name], cache);
      if (own.parent) codeTokens(own.parent, fields[Field.Signature], cache);
    } else if (chunk.symbol) {
      codeTokens(chunk.symbol.split(".").pop() ?? "", fields[Field.Name], cache);
    }
    for (let i = firstAtOrAfter(byLine, chunk.startLine); i < byLine.length; i++) {
      const s = byLine[i];
      if (s.line > chunk.endLine) break;
      codeTokens(s.signature || s.name, fields[Field.Signature], cache);
      if (s.doc) codeTokens(s.doc, fields[Field.Doc], cache);
    }
    // Only the comment lines become strings (a split would make one per line).
    for (const m of chunk.text.matchAll(COMMENT_LINES)) codeTokens(m[0], fields[Field.Doc], cache);
    codeTokens(chunk.text, fields[Field.Body], cache);
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

function pairs(ids: number[]): number[] {
  const counts = new Map<number, number>();
  for (const i of ids) counts.set(i, (counts.get(i) ?? 0) + 1);
  const out: number[] = [];
  for (const [i, n] of counts) out.push(i, n);
  return out;
}
