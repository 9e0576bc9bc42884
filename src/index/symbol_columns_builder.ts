/**
 * Symbol columns (`symbol_columns.ts`) built file by file: each symbol's strings put in one
 * table, its numbers in growing typed arrays, its signature and doc in one byte buffer; and
 * the files put in manifest order at the end.
 *
 * @module
 */

import type { SymbolRecord } from "../types.ts";
import { grow } from "./columns_io.ts";
import { NONE, SymbolColumns } from "./symbol_columns.ts";

const encoder = new TextEncoder();

/**
 * Columns of `files`' symbols (each file's in source order), e.g. read from the store.
 *
 * @example
 * ```ts
 * const cols = columnsOf([["a.py", parsed.symbols]]);
 * cols.record(0).name;
 * ```
 */
export function columnsOf(files: Iterable<[string, readonly SymbolRecord[]]>): SymbolColumns {
  const b = new ColumnsBuilder();
  for (const [path, list] of files) b.add(path, list);
  return b.finish();
}

/** Columns filled file by file, in the order the files are added. */
export class ColumnsBuilder {
  private readonly ids = new Map<string, number>();
  private readonly strings: string[] = [];
  private readonly files: string[] = [];
  private fileStart: number[] = [0];
  private n = 0;
  private cols = Array.from({ length: 10 }, () => new Uint32Array(1024));
  private textStart = new Float64Array(1024);
  private text = new Uint8Array(1 << 16);
  private textLen = 0;

  private id(s: string): number {
    let i = this.ids.get(s);
    if (i === undefined) {
      i = this.strings.length;
      this.ids.set(s, i);
      this.strings.push(s);
    }
    return i;
  }

  private put(s: string): void {
    if (!s) return;
    // At most 3 bytes of UTF-8 per UTF-16 unit.
    this.text = grow(this.text, this.textLen + s.length * 3);
    this.textLen += encoder.encodeInto(s, this.text.subarray(this.textLen)).written;
  }

  /** Adds one file and its symbols (in source order). */
  add(path: string, symbols: readonly SymbolRecord[]): void {
    const f = this.files.length;
    this.files.push(path);
    const need = this.n + symbols.length;
    this.cols = this.cols.map((c) => grow(c, need));
    this.textStart = grow(this.textStart, need + 1);
    const [name, qual, parent, kind, lang, file, line, startLine, endLine, sigLen] = this.cols;
    for (const s of symbols) {
      const i = this.n++;
      name[i] = this.id(s.name);
      qual[i] = this.id(s.qualifiedName);
      parent[i] = s.parent === null ? NONE : this.id(s.parent);
      kind[i] = this.id(s.kind);
      lang[i] = this.id(s.language);
      file[i] = f;
      line[i] = s.line;
      startLine[i] = s.startLine;
      endLine[i] = s.endLine;
      this.textStart[i] = this.textLen;
      this.put(s.signature);
      sigLen[i] = this.textLen - this.textStart[i];
      this.put(s.doc);
    }
    this.textStart[this.n] = this.textLen;
    this.fileStart.push(this.n);
  }

  /**
   * The columns, files in the order they were added, or in `order` (paths; those never
   * added are files without symbols).
   */
  finish(order?: readonly string[]): SymbolColumns {
    if (order) this.reorder(order);
    const n = this.n;
    const poolStart = new Uint32Array(this.strings.length + 1);
    for (let i = 0; i < this.strings.length; i++) {
      poolStart[i + 1] = poolStart[i] + this.strings[i].length;
    }
    const pool = this.strings.join("");
    // Arrays of the exact size (a reorder made them) are taken as they are: a copy of each
    // beside it was the symbol build's peak on the Linux kernel (~400 MiB more).
    const exact = <T extends Uint8Array | Uint32Array | Float64Array>(a: T, length: number) =>
      a.length === length ? a : a.slice(0, length) as T;
    const text = exact(this.text, this.textLen);
    const cols = this.cols.map((c) => exact(c, n));
    const textStart = exact(this.textStart, n + 1);
    const fileStart = Uint32Array.from(this.fileStart);
    const files = this.files;
    this.ids.clear();
    return new SymbolColumns(files, fileStart, pool, poolStart, cols, textStart, {
      read: (start: number, end: number) => text.subarray(start, end),
      close: () => {},
    });
  }

  /** Puts the files (their symbols and texts) in `order`. */
  private reorder(order: readonly string[]): void {
    const at = new Map(this.files.map((p, f) => [p, f]));
    const n = this.n;
    const cols = this.cols.map(() => new Uint32Array(Math.max(n, 1)));
    const textStart = new Float64Array(n + 1);
    const text = new Uint8Array(Math.max(this.textLen, 1));
    const fileStart = [0];
    let i = 0;
    let t = 0;
    order.forEach((path, f) => {
      const old = at.get(path);
      if (old !== undefined) {
        const from = this.fileStart[old];
        const to = this.fileStart[old + 1];
        for (let k = 0; k < cols.length; k++) cols[k].set(this.cols[k].subarray(from, to), i);
        cols[5].fill(f, i, i + to - from);
        const t0 = this.textStart[from];
        const t1 = this.textStart[to];
        text.set(this.text.subarray(t0, t1), t);
        for (let j = from; j < to; j++) textStart[i + j - from] = this.textStart[j] - t0 + t;
        i += to - from;
        t += t1 - t0;
      }
      fileStart.push(i);
    });
    if (i !== n) throw new Error("symbols of a file outside the order");
    textStart[n] = t;
    this.cols = cols;
    this.textStart = textStart;
    this.text = text;
    this.fileStart = fileStart;
    this.files.length = 0;
    this.files.push(...order);
  }
}
