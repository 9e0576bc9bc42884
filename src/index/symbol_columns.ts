/**
 * The symbols of one generation as columns: typed arrays and one string table, not one
 * object per symbol (the Linux kernel: 3 M symbols, 2.5 GiB as objects). A symbol is its
 * place in the list (files in manifest order, symbols in source order); its record is made
 * when a caller asks for it, one file at a time, and kept, so the same symbol is always the
 * same object.
 *
 * The columns are written beside the store (`symbols.bin`, named by what they were built
 * from) and read back in one go by the next process; signatures and docs stay in that file
 * and are read when a file's records are made.
 *
 * @module
 */

import type { SymbolKind, SymbolRecord } from "../types.ts";
import { openKeyed, padLength, readAt, ViewCursor } from "./columns_io.ts";
import { Memo } from "../util/memo.ts";

/** The file, in the index folder, that holds the last built columns. */
export const SYMBOLS_FILE = "symbols.bin";

/** The string id of no string (a top-level symbol's parent). */
export const NONE = 0xffffffff;
const MAGIC = "codectx-symbols-1";

/** Where the signature and doc bytes are: in memory, or in the file they were written to. */
interface TextBytes {
  read(start: number, end: number): Uint8Array;
  close(): void;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** A string field of a symbol (an id into the string table). */
/** The string fields symbols are looked up by (`parent`: the symbols declared in a definition). */
export type StringField = "name" | "qualifiedName" | "parent";

/** Distinct values of a field: `ids[n]` the string, its symbols `symbols[start[n] .. start[n+1])`. */
export interface FieldGroups {
  ids: Uint32Array;
  start: Uint32Array;
  symbols: Uint32Array;
}

/** Distinct values by hash bucket: bucket `b` holds `members[start[b] .. start[b + 1])`. */
interface KeyBuckets {
  start: Uint32Array;
  members: Uint32Array;
}

/** FNV-1a over the UTF-16 units of `text[from, to)`. */
function hashText(text: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The symbols of one generation. */
export class SymbolColumns {
  /** What is built over these columns (the name index `search_symbols` asks). */
  readonly memo: Memo<SymbolColumns> = new Memo<SymbolColumns>(this);
  private readonly made = new Map<number, SymbolRecord[]>();
  private readonly groups = new Map<StringField, FieldGroups>();
  private readonly keyed = new Map<string, KeyBuckets>();
  /** Fields whose first exact lookup scanned the values (the next one builds the table). */
  private readonly scanned = new Set<StringField>();
  private fileIds: Map<string, number> | null = null;

  /** Per symbol: string ids (`parent`: NONE at top level), positions, its file. */
  readonly name: Uint32Array;
  readonly qual: Uint32Array;
  readonly parent: Uint32Array;
  readonly kind: Uint32Array;
  readonly lang: Uint32Array;
  readonly file: Uint32Array;
  readonly line: Uint32Array;
  readonly startLine: Uint32Array;
  readonly endLine: Uint32Array;
  /** Signature then doc, UTF-8: `[textStart[i], textStart[i] + sigLen[i])`, then to `textStart[i+1]`. */
  private readonly sigLen: Uint32Array;

  /**
   * Columns as `ColumnsBuilder` (`symbol_columns_builder.ts`) or {@link SymbolColumns.readFile}
   * make them; `cols` are the ten per-symbol columns, from `name` to `sigLen` in the order
   * declared above.
   */
  constructor(
    /** The file paths, in manifest order (files without symbols included). */
    readonly files: readonly string[],
    /** Symbols of file `f`: `[fileStart[f], fileStart[f + 1])`. */
    readonly fileStart: Uint32Array,
    /** The string table: string `id` is `pool[poolStart[id] .. poolStart[id + 1])`. */
    readonly pool: string,
    readonly poolStart: Uint32Array,
    private readonly cols: readonly Uint32Array[],
    private readonly textStart: Float64Array,
    private readonly text: TextBytes,
  ) {
    [
      this.name,
      this.qual,
      this.parent,
      this.kind,
      this.lang,
      this.file,
      this.line,
      this.startLine,
      this.endLine,
      this.sigLen,
    ] = cols;
  }

  /** How many symbols. */
  get count(): number {
    return this.name.length;
  }

  /** String `id` of the table. */
  string(id: number): string {
    return this.pool.slice(this.poolStart[id], this.poolStart[id + 1]);
  }

  /** Symbol `i`'s name, qualified name, kind, file. */
  nameOf(i: number): string {
    return this.string(this.name[i]);
  }
  qualifiedNameOf(i: number): string {
    return this.string(this.qual[i]);
  }
  kindOf(i: number): SymbolKind {
    return this.string(this.kind[i]) as SymbolKind;
  }
  fileOf(i: number): string {
    return this.files[this.file[i]];
  }
  hasParent(i: number): boolean {
    return this.parent[i] !== NONE;
  }

  /** How many files' records have been made and kept (what a test of a fresh command asks). */
  get filesMade(): number {
    return this.made.size;
  }

  /** The index of file `path` in {@link files}, or -1. */
  fileIndex(path: string): number {
    this.fileIds ??= new Map(this.files.map((p, f) => [p, f]));
    return this.fileIds.get(path) ?? -1;
  }

  /** The records of file `f` (made once; `keep` false: made for the caller alone). */
  fileRecords(f: number, keep = true): SymbolRecord[] {
    let list = this.made.get(f);
    if (list) return list;
    const from = this.fileStart[f];
    const to = this.fileStart[f + 1];
    list = [];
    if (to > from) {
      const base = this.textStart[from];
      const bytes = this.text.read(base, this.textStart[to]);
      const path = this.files[f];
      for (let i = from; i < to; i++) {
        const t0 = this.textStart[i] - base;
        const t1 = t0 + this.sigLen[i];
        const t2 = this.textStart[i + 1] - base;
        list.push({
          name: this.string(this.name[i]),
          qualifiedName: this.string(this.qual[i]),
          kind: this.string(this.kind[i]) as SymbolKind,
          file: path,
          line: this.line[i],
          startLine: this.startLine[i],
          endLine: this.endLine[i],
          signature: decoder.decode(bytes.subarray(t0, t1)),
          doc: t2 > t1 ? decoder.decode(bytes.subarray(t1, t2)) : "",
          parent: this.parent[i] === NONE ? null : this.string(this.parent[i]),
          language: this.string(this.lang[i]),
        });
      }
    }
    if (keep) this.made.set(f, list);
    return list;
  }

  /** The record of symbol `i`. */
  record(i: number): SymbolRecord {
    const f = this.file[i];
    return this.fileRecords(f)[i - this.fileStart[f]];
  }

  /** Every record, in list order (makes them all: for callers that walk every symbol). */
  allRecords(): SymbolRecord[] {
    const out: SymbolRecord[] = [];
    for (let f = 0; f < this.files.length; f++) {
      for (const s of this.fileRecords(f)) out.push(s);
    }
    return out;
  }

  /** The distinct values of `field` and their symbols, in list order (built once). */
  fieldGroups(field: StringField): FieldGroups {
    const hit = this.groups.get(field);
    if (hit) return hit;
    const col = field === "name" ? this.name : field === "parent" ? this.parent : this.qual;
    const dense = new Int32Array(this.poolStart.length - 1).fill(-1);
    // A symbol without a value (a top-level one's parent) is in no group.
    const of = new Int32Array(col.length);
    let n = 0;
    let valued = 0;
    for (let i = 0; i < col.length; i++) {
      if (col[i] === NONE) {
        of[i] = -1;
        continue;
      }
      let d = dense[col[i]];
      if (d < 0) d = dense[col[i]] = n++;
      of[i] = d;
      valued++;
    }
    const ids = new Uint32Array(n);
    for (let s = 0; s < dense.length; s++) if (dense[s] >= 0) ids[dense[s]] = s;
    const start = new Uint32Array(n + 1);
    for (let i = 0; i < of.length; i++) if (of[i] >= 0) start[of[i] + 1]++;
    for (let k = 0; k < n; k++) start[k + 1] += start[k];
    const at = start.slice(0, n);
    const symbols = new Uint32Array(valued);
    for (let i = 0; i < of.length; i++) if (of[i] >= 0) symbols[at[of[i]]++] = i;
    const groups = { ids, start, symbols };
    this.groups.set(field, groups);
    return groups;
  }

  /**
   * The symbols whose `field`, mapped by `key`, is `value` — in list order. The map of a
   * `name` (the same function object each time) is built once over the distinct values.
   */
  lookup(
    field: StringField,
    key: (value: string) => string,
    name: string,
    value: string,
  ): number[] {
    const g = this.fieldGroups(field);
    const cacheKey = `${field} ${name}`;
    let table = this.keyed.get(cacheKey);
    const groupsOf: number[] = [];
    if (!table && name === "exact" && !this.scanned.has(field)) {
      // A process's first exact lookup of a field (a command asks one or a few) compares the
      // distinct values in place: cheaper than hashing every one of them for a table.
      this.scanned.add(field);
      const { pool, poolStart } = this;
      for (let n = 0; n < g.ids.length; n++) {
        const at = poolStart[g.ids[n]];
        if (poolStart[g.ids[n] + 1] - at === value.length && pool.startsWith(value, at)) {
          groupsOf.push(n);
        }
      }
    } else {
      if (!table) {
        table = this.hashed(g, name === "exact" ? null : key);
        this.keyed.set(cacheKey, table);
      }
      // The distinct values in the value's bucket whose key is the value.
      const bucket = hashText(value, 0, value.length) & (table.start.length - 2);
      for (let j = table.start[bucket]; j < table.start[bucket + 1]; j++) {
        const n = table.members[j];
        const text = this.string(g.ids[n]);
        if ((name === "exact" ? text : key(text)) === value) groupsOf.push(n);
      }
    }
    const out: number[] = [];
    for (const n of groupsOf) {
      for (let j = g.start[n]; j < g.start[n + 1]; j++) out.push(g.symbols[j]);
    }
    return groupsOf.length > 1 ? out.sort((a, b) => a - b) : out;
  }

  /**
   * The distinct values of a field in hash buckets of their key (`key` null: the value
   * itself, hashed in the string table without making a string): two typed arrays, not a
   * map of strings — the kernel has millions of distinct names.
   */
  private hashed(g: FieldGroups, key: ((value: string) => string) | null): KeyBuckets {
    const n = g.ids.length;
    let size = 2;
    while (size < n) size *= 2;
    const hash = new Uint32Array(n);
    for (let k = 0; k < n; k++) {
      const id = g.ids[k];
      if (key) {
        const text = key(this.string(id));
        hash[k] = hashText(text, 0, text.length) & (size - 1);
      } else {
        hash[k] = hashText(this.pool, this.poolStart[id], this.poolStart[id + 1]) & (size - 1);
      }
    }
    const start = new Uint32Array(size + 1);
    for (let k = 0; k < n; k++) start[hash[k] + 1]++;
    for (let b = 0; b < size; b++) start[b + 1] += start[b];
    const at = start.slice(0, size);
    const members = new Uint32Array(n);
    for (let k = 0; k < n; k++) members[at[hash[k]]++] = k;
    return { start, members };
  }

  /** Closes the file the texts are read from. */
  close(): void {
    this.text.close();
  }

  /** The columns as bytes (see {@link decode}), named by `key`. */
  encodeParts(key: string): Uint8Array[] {
    const textEnd = this.textStart[this.count];
    const head = encoder.encode(
      JSON.stringify({
        magic: MAGIC,
        key,
        symbols: this.count,
        strings: this.poolStart.length - 1,
        files: this.files.length,
        text: textEnd,
      }) + "\n",
    );
    const pool = encoder.encode(this.pool);
    const paths = encoder.encode(this.files.join("\n"));
    const sizes = new Uint32Array([head.length, pool.length, paths.length, 0]);
    const cols = [this.poolStart, this.fileStart, ...this.cols];
    const out: Uint8Array[] = [
      new Uint8Array(sizes.buffer),
      head,
      new Uint8Array(padLength(head.length)),
    ];
    out.push(
      new Uint8Array(this.textStart.buffer, this.textStart.byteOffset, this.textStart.byteLength),
    );
    for (const c of cols) out.push(new Uint8Array(c.buffer, c.byteOffset, c.byteLength));
    out.push(pool, paths, this.text.read(0, textEnd));
    return out;
  }

  /** The key of the columns written at `path`, or null (reads its head only). */
  static fileKey(path: string): string | null {
    const opened = openKeyed(path, null, readHead);
    opened?.fd.close();
    return opened?.head.key ?? null;
  }

  /**
   * Reads the columns written at `path` if they were built from `key`; null when absent,
   * stale or unreadable. Everything but the signatures and docs is read at once; those are
   * read from the file when a file's records are made (the file handle stays open).
   */
  static readFile(path: string, key: string): SymbolColumns | null {
    const opened = openKeyed(path, key, readHead);
    if (!opened) return null;
    const { fd: file, head } = opened;
    const sizes = head.sizes;
    try {
      const n: number = head.symbols;
      const strings: number = head.strings;
      const nFiles: number = head.files;
      let at = 16 + sizes[0] + padLength(sizes[0]);
      const words = (strings + 1) + (nFiles + 1) + 10 * n;
      const body = readAt(file, at, words * 4 + (n + 1) * 8 + sizes[1] + sizes[2]);
      at += body.length;
      const cursor = new ViewCursor(body.buffer);
      const textStart = cursor.f64(n + 1);
      const poolStart = cursor.u32(strings + 1);
      const fileStart = cursor.u32(nFiles + 1);
      const cols = Array.from({ length: 10 }, () => cursor.u32(n));
      const pool = decoder.decode(new Uint8Array(body.buffer, cursor.off, sizes[1]));
      const paths = decoder.decode(new Uint8Array(body.buffer, cursor.off + sizes[1], sizes[2]));
      const files = nFiles === 0 ? [] : paths.split("\n");
      const textAt = at;
      const fd = file;
      const text: TextBytes = {
        read: (start, end) => readAt(fd, textAt + start, end - start),
        close: () => fd.close(),
      };
      return new SymbolColumns(files, fileStart, pool, poolStart, cols, textStart, text);
    } catch {
      file.close();
      return null;
    }
  }
}

/** A symbols file's head, with its prelude's sizes (head, string table, paths). */
interface SymbolsHead {
  key: string;
  symbols: number;
  strings: number;
  files: number;
  sizes: Uint32Array;
}

/** The head of a symbols file and its prelude's sizes, or null for another file. */
function readHead(fd: Deno.FsFile): SymbolsHead | null {
  const sizes = new Uint32Array(readAt(fd, 0, 16).buffer);
  const head = JSON.parse(decoder.decode(readAt(fd, 16, sizes[0])));
  return head.magic === MAGIC ? { ...head, sizes } : null;
}
