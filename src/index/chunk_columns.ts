/**
 * The chunks of a large generation in one file beside the store (`chunks.bin`): their texts
 * first, written blob by blob as they are read from the store, then columns (file, lines,
 * symbol, kind, language, where the text lies) and one string table. A process that finds
 * the file reads the columns in one go and makes the chunk records from them, each reading
 * its text from the file when asked — instead of parsing every chunk blob (the Linux
 * kernel: 1.4 M chunks, 1.1 GiB of text as JSON) and copying the texts to a spill file.
 *
 * @module
 */

import type { ChunkRecord, SymbolKind } from "../types.ts";
import {
  bytesOf,
  grow,
  openKeyed,
  padLength as pad,
  readAt,
  readScratch,
  ViewCursor,
  writeAll,
} from "./columns_io.ts";

/** The file, in the index folder, that holds the chunks of a large generation. */
export const CHUNKS_FILE = "chunks.bin";

const MAGIC = 0x4b484358; // "XCHK", little-endian
const NONE = 0xffffffff;
/** Texts kept after reading (a result's chunk is read a few times while it is presented). */
const RECENT_TEXTS = 64;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

interface Head {
  key: string;
  chunks: number;
  strings: number;
  files: number;
  /** Chunks whose id is not `file:start-end`, by storage index. */
  ids: Record<string, string>;
}

/** A chunk whose fields are read from the columns and its text from the file. */
class ColumnChunk implements ChunkRecord {
  constructor(private readonly t: ChunkColumns, private readonly i: number) {}
  get id(): string {
    return this.t.ids.get(this.i) ?? `${this.file}:${this.startLine}-${this.endLine}`;
  }
  get file(): string {
    return this.t.files[this.t.file[this.i]];
  }
  get startLine(): number {
    return this.t.startLine[this.i];
  }
  get endLine(): number {
    return this.t.endLine[this.i];
  }
  get symbol(): string | null {
    return this.t.optional(this.t.symbol[this.i]);
  }
  get kind(): SymbolKind | null {
    return this.t.optional(this.t.kind[this.i]) as SymbolKind | null;
  }
  get language(): string {
    return this.t.string(this.t.lang[this.i]);
  }
  get text(): string {
    return this.t.text(this.i);
  }

  /**
   * The texts of `chunks` as UTF-8 in one read, with each one's length, when they follow each
   * other in one columns file (one blob's chunks, in order); else null.
   */
  static textBytes(
    chunks: readonly ChunkRecord[],
  ): { bytes: Uint8Array; lengths: Uint32Array } | null {
    const first = chunks[0];
    if (!(first instanceof ColumnChunk)) return null;
    for (let k = 1; k < chunks.length; k++) {
      const c = chunks[k];
      if (!(c instanceof ColumnChunk) || c.t !== first.t || c.i !== first.i + k) return null;
    }
    return first.t.textRun(first.i, chunks.length);
  }
}

/** See {@link ColumnChunk.textBytes}. */
export function columnTextBytes(
  chunks: readonly ChunkRecord[],
): { bytes: Uint8Array; lengths: Uint32Array } | null {
  return chunks.length ? ColumnChunk.textBytes(chunks) : null;
}

/** The chunk columns read from a file. */
export class ChunkColumns {
  private readonly recent = new Map<number, string>();
  private readonly made: (string | undefined)[] = [];

  private constructor(
    private readonly fd: Deno.FsFile,
    readonly ids: Map<number, string>,
    readonly files: string[],
    /** Storage indexes of the chunks, in row order (files in manifest order). */
    readonly rows: Uint32Array,
    private readonly pool: string,
    private readonly poolStart: Uint32Array,
    readonly file: Uint32Array,
    readonly startLine: Uint32Array,
    readonly endLine: Uint32Array,
    readonly symbol: Uint32Array,
    readonly kind: Uint32Array,
    readonly lang: Uint32Array,
    private readonly textStart: Float64Array,
  ) {}

  /** String `id` (each made once: a search reads a row's kind and language in its loops). */
  string(id: number): string {
    return this.made[id] ??= this.pool.slice(this.poolStart[id], this.poolStart[id + 1]);
  }

  optional(id: number): string | null {
    return id === NONE ? null : this.string(id);
  }

  /** The text of chunk `i` (storage index), read from the file. */
  text(i: number): string {
    const hit = this.recent.get(i);
    if (hit !== undefined) return hit;
    const start = this.textStart[i];
    const text = decoder.decode(readScratch(this.fd, 16 + start, this.textStart[i + 1] - start));
    if (this.recent.size >= RECENT_TEXTS) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(i, text);
    return text;
  }

  /** The texts of chunks `i`…`i + n - 1` (storage indexes) as UTF-8 in one read, and their lengths. */
  textRun(i: number, n: number): { bytes: Uint8Array; lengths: Uint32Array } {
    const start = this.textStart[i];
    const lengths = new Uint32Array(n);
    for (let k = 0; k < n; k++) lengths[k] = this.textStart[i + k + 1] - this.textStart[i + k];
    return { bytes: readAt(this.fd, 16 + start, this.textStart[i + n] - start), lengths };
  }

  /** The chunk records in row order (one small object each; texts stay in the file). */
  records(): ChunkRecord[] {
    return Array.from(this.rows, (i) => new ColumnChunk(this, i));
  }

  close(): void {
    try {
      this.fd.close();
    } catch {
      // closed already
    }
  }

  /** The key of the columns written at `path` (its head only), or null. */
  static fileKey(path: string): string | null {
    const opened = openKeyed(path, null, readHead);
    opened?.fd.close();
    return opened?.head.key ?? null;
  }

  /** The columns written at `path` if built from `key`; null when absent, stale or unreadable. */
  static readFile(path: string, key: string): ChunkColumns | null {
    const opened = openKeyed(path, key, readHead);
    if (!opened) return null;
    const { fd, head } = opened;
    try {
      const n = head.chunks;
      const at = head.end + pad(head.end - head.at);
      const size = fd.statSync().size;
      const cursor = new ViewCursor(readAt(fd, at, size - at).buffer);
      const textStart = cursor.f64(n + 1);
      const poolStart = cursor.u32(head.strings + 1);
      const rows = cursor.u32(n);
      const [file, startLine, endLine, symbol, kind, lang] = Array.from(
        { length: 6 },
        () => cursor.u32(n),
      );
      const poolBytes = poolStart[head.strings];
      // The pool's length is in UTF-16 units; its bytes run to the paths, which run to the end.
      const rest = new Uint8Array(cursor.buf, cursor.off);
      const split = rest.indexOf(0);
      const pool = decoder.decode(rest.subarray(0, split));
      const paths = decoder.decode(rest.subarray(split + 1));
      if (pool.length !== poolBytes) throw new Error("chunks file: string table cut off");
      const ids = new Map(Object.entries(head.ids).map(([k, v]) => [Number(k), v]));
      return new ChunkColumns(
        fd,
        ids,
        head.files ? paths.split("\n") : [],
        rows,
        pool,
        poolStart,
        file,
        startLine,
        endLine,
        symbol,
        kind,
        lang,
        textStart,
      );
    } catch {
      fd.close();
      return null;
    }
  }
}

/** The head of a chunks file (where it lies in the file too), or null for another file. */
function readHead(fd: Deno.FsFile): Head & { at: number; end: number } | null {
  const pre = new DataView(readAt(fd, 0, 16).buffer);
  if (pre.getUint32(0, true) !== MAGIC) return null;
  const length = pre.getUint32(4, true);
  const at = pre.getFloat64(8, true);
  return { ...JSON.parse(decoder.decode(readAt(fd, at, length))), at, end: at + length };
}

/**
 * Writes `chunks.bin`: {@link add} each blob's chunks in any order (their texts go to the
 * file at once), then {@link finish} with the files' order.
 */
export class ChunkColumnsWriter {
  private readonly fd: Deno.FsFile;
  private readonly tmp: string;
  private readonly strings = new Map<string, number>();
  private readonly list: string[] = [];
  private readonly files: string[] = [];
  private readonly fileStart: number[] = [0];
  private readonly ids: Record<string, string> = {};
  private cols = Array.from({ length: 6 }, () => new Uint32Array(1024));
  private textStart = new Float64Array(1024);
  private n = 0;
  private textLen = 0;
  private buf = new Uint8Array(1 << 20);

  constructor(private readonly path: string) {
    this.tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
    this.fd = Deno.openSync(this.tmp, { read: true, write: true, create: true, truncate: true });
    writeAll(this.fd, new Uint8Array(16));
  }

  private id(s: string): number {
    let i = this.strings.get(s);
    if (i === undefined) {
      i = this.list.length;
      this.strings.set(s, i);
      this.list.push(s);
    }
    return i;
  }

  /** Adds one file's chunks (in blob order). */
  add(path: string, chunks: readonly ChunkRecord[]): void {
    const f = this.files.length;
    this.files.push(path);
    const need = this.n + chunks.length;
    this.cols = this.cols.map((c) => grow(c, need));
    this.textStart = grow(this.textStart, need + 1);
    let bytes = 0;
    for (const c of chunks) bytes += c.text.length * 3;
    if (this.buf.length < bytes) this.buf = new Uint8Array(bytes);
    let used = 0;
    const [file, startLine, endLine, symbol, kind, lang] = this.cols;
    for (const c of chunks) {
      const i = this.n++;
      file[i] = f;
      startLine[i] = c.startLine;
      endLine[i] = c.endLine;
      symbol[i] = c.symbol === null ? NONE : this.id(c.symbol);
      kind[i] = c.kind === null ? NONE : this.id(c.kind);
      lang[i] = this.id(c.language);
      if (c.id !== `${c.file}:${c.startLine}-${c.endLine}`) this.ids[i] = c.id;
      this.textStart[i] = this.textLen + used;
      used += encoder.encodeInto(c.text, this.buf.subarray(used)).written;
    }
    writeAll(this.fd, this.buf.subarray(0, used));
    this.textLen += used;
    this.textStart[this.n] = this.textLen;
    this.fileStart.push(this.n);
  }

  /** Writes the columns, files in `order` (paths; those never added hold no chunk) and renames. */
  finish(key: string, order: readonly string[]): void {
    const at = new Map(this.files.map((p, f) => [p, f]));
    const n = this.n;
    const rows = new Uint32Array(n);
    const files: string[] = [];
    let r = 0;
    const file = this.cols[0];
    for (const p of order) {
      const f = at.get(p);
      if (f === undefined || this.fileStart[f + 1] === this.fileStart[f]) continue;
      for (let i = this.fileStart[f]; i < this.fileStart[f + 1]; i++) {
        rows[r++] = i;
        file[i] = files.length;
      }
      files.push(p);
    }
    if (r !== n) throw new Error("chunks of a file outside the order");
    const poolStart = new Uint32Array(this.list.length + 1);
    for (let i = 0; i < this.list.length; i++) {
      poolStart[i + 1] = poolStart[i] + this.list[i].length;
    }
    const head: Head = {
      key,
      chunks: n,
      strings: this.list.length,
      files: files.length,
      ids: this.ids,
    };
    const headBytes = encoder.encode(JSON.stringify(head));
    const tail = 16 + this.textLen;
    const parts = [
      headBytes,
      new Uint8Array(pad(headBytes.length)),
      bytesOf(this.textStart.subarray(0, n + 1)),
      bytesOf(poolStart),
      bytesOf(rows),
      ...this.cols.map((c) => bytesOf(c.subarray(0, n))),
      encoder.encode(this.list.join("")),
      new Uint8Array(1),
      encoder.encode(files.join("\n")),
    ];
    for (const p of parts) writeAll(this.fd, p);
    const pre = new DataView(new ArrayBuffer(16));
    pre.setUint32(0, MAGIC, true);
    pre.setUint32(4, headBytes.length, true);
    pre.setFloat64(8, tail, true);
    this.fd.seekSync(0, Deno.SeekMode.Start);
    writeAll(this.fd, new Uint8Array(pre.buffer));
    this.fd.close();
    Deno.renameSync(this.tmp, this.path);
  }

  /** Gives up: removes the temporary file. */
  abandon(): void {
    try {
      this.fd.close();
    } catch {
      // closed already
    }
    try {
      Deno.removeSync(this.tmp);
    } catch {
      // never written
    }
  }
}
