/**
 * The symbol columns of a generation (`symbol_columns.ts`) on disk and in a loaded index:
 * read from `symbols.bin` when it was built from the same files, else built from the
 * store's `symbols` parts (a file unchanged since the columns in memory is taken from them)
 * and written there; and the per-file view a loaded index hands out.
 *
 * @module
 */

import { type Manifest, type Store, STORE_FORMAT } from "../store/kv.ts";
import type { SymbolRecord } from "../types.ts";
import { sha256Hex } from "../util/hash.ts";
import { VERSION } from "../version.ts";
import { SymbolColumns, SYMBOLS_FILE } from "./symbol_columns.ts";
import { ColumnsBuilder } from "./symbol_columns_builder.ts";
import { ChunkColumns, ChunkColumnsWriter, CHUNKS_FILE } from "./chunk_columns.ts";
import type { ChunkRecord } from "../types.ts";
import { writeFileAtomically } from "./columns_io.ts";

/**
 * What columns are built from: the codectx version and store format, and each indexed
 * file's path and blob, in manifest order.
 */
export async function columnsKey(manifest: Manifest): Promise<string> {
  const parts = [`${VERSION} ${STORE_FORMAT}`];
  for (const f of manifest.files) if (!f.skipped) parts.push(`${f.path}\0${f.blob}`);
  return await sha256Hex(new TextEncoder().encode(parts.join("\n")));
}

/** The key of the columns written in `dir`, or null (reads the first line only). */
export function storedColumnsKey(dir: string): string | null {
  return SymbolColumns.fileKey(`${dir}/${SYMBOLS_FILE}`);
}

/** Columns in memory and the blob each of their files was built from. */
export interface KnownColumns {
  columns: SymbolColumns;
  blobs: Map<string, string>;
}

/**
 * The columns of `manifest` (built from `key`): the file's when it matches, else built and
 * written (best effort: without the file, the next process builds again) and read back from
 * it (signatures and docs left on disk) — unless `readBack` is false: a caller that only
 * wants the file written gets the built columns (the Linux kernel's: ~300 MiB not read).
 */
export async function loadColumns(
  store: Store,
  manifest: Manifest,
  key: string,
  prev: KnownColumns | null,
  readBack = true,
): Promise<SymbolColumns> {
  const path = `${store.dir}/${SYMBOLS_FILE}`;
  const read = SymbolColumns.readFile(path, key);
  if (read) return read;
  const order: string[] = [];
  const pathOfBlob = new Map<string, string>();
  const builder = new ColumnsBuilder();
  const need = new Set<string>();
  for (const f of manifest.files) {
    if (f.skipped) continue;
    order.push(f.path);
    const old = prev && prev.blobs.get(f.path) === f.blob ? prev.columns.fileIndex(f.path) : -1;
    if (old >= 0) builder.add(f.path, prev!.columns.fileRecords(old, false));
    else if (f.blob) {
      need.add(f.blob);
      pathOfBlob.set(f.blob, f.path);
    }
  }
  const put = (blob: string, list: SymbolRecord[]) => {
    const p = pathOfBlob.get(blob);
    if (p !== undefined) builder.add(p, list);
  };
  if (need.size > 64) await store.eachBlob<SymbolRecord[]>("symbols", need, put);
  else {
    for (const k of need) put(k, (await store.readBlob<SymbolRecord[]>("symbols", k)) ?? []);
  }
  const built = builder.finish(order);
  if (!write(path, built, key) || !readBack) return built;
  const back = SymbolColumns.readFile(path, key);
  if (!back) return built;
  built.close();
  return back;
}

/**
 * Writes the columns (a temporary file renamed over the last one, so a reader never sees
 * half of it); whether it was written.
 */
function write(path: string, columns: SymbolColumns, key: string): boolean {
  return writeFileAtomically(path, columns.encodeParts(key));
}

/** Symbols by file path, each file's records made on first use (a read-only map). */
export class FileSymbols implements ReadonlyMap<string, SymbolRecord[]> {
  constructor(private readonly columns: SymbolColumns) {}

  get size(): number {
    return this.columns.files.length;
  }
  get(path: string): SymbolRecord[] | undefined {
    const f = this.columns.fileIndex(path);
    return f < 0 ? undefined : this.columns.fileRecords(f);
  }
  has(path: string): boolean {
    return this.columns.fileIndex(path) >= 0;
  }
  *keys(): MapIterator<string> {
    yield* this.columns.files;
  }
  *values(): MapIterator<SymbolRecord[]> {
    for (let f = 0; f < this.columns.files.length; f++) yield this.columns.fileRecords(f);
  }
  *entries(): MapIterator<[string, SymbolRecord[]]> {
    for (let f = 0; f < this.columns.files.length; f++) {
      yield [this.columns.files[f], this.columns.fileRecords(f)];
    }
  }
  [Symbol.iterator](): MapIterator<[string, SymbolRecord[]]> {
    return this.entries();
  }
  forEach(
    fn: (value: SymbolRecord[], key: string, map: ReadonlyMap<string, SymbolRecord[]>) => void,
  ): void {
    for (const [k, v] of this.entries()) fn(v, k, this);
  }
}

/**
 * Above this many chunks a generation's chunks are always read from `chunks.bin` (see
 * `chunk_columns.ts`), written by every run; below, when a process's first run wrote it.
 */
export const LARGE_CHUNKS = 250_000;

/** How many chunks the generation holds. */
export function chunkCount(manifest: Manifest): number {
  let n = 0;
  for (const f of manifest.files) if (!f.skipped) n += f.chunks;
  return n;
}

/**
 * The chunk columns of `manifest` (built from `key`): the file's when it matches, else
 * written from the store's chunk blobs (one at a time) and read back (unless `readBack` is
 * false: the caller only wants the file written); null when the file cannot be written (the
 * caller loads the chunks as they are) or was not read back.
 */
export async function loadChunkColumns(
  store: Store,
  manifest: Manifest,
  key: string,
  readBack = true,
): Promise<ChunkColumns | null> {
  const path = `${store.dir}/${CHUNKS_FILE}`;
  const read = ChunkColumns.readFile(path, key);
  if (read) return read;
  const order: string[] = [];
  const pathOfBlob = new Map<string, string>();
  for (const f of manifest.files) {
    if (f.skipped || !f.blob) continue;
    order.push(f.path);
    if (f.chunks > 0) pathOfBlob.set(f.blob, f.path);
  }
  let writer: ChunkColumnsWriter | null = null;
  try {
    const w = writer = new ChunkColumnsWriter(path);
    await store.eachBlob<ChunkRecord[]>("chunks", new Set(pathOfBlob.keys()), (blob, chunks) => {
      const p = pathOfBlob.get(blob);
      if (p !== undefined) w.add(p, chunks);
    });
    w.finish(key, order);
    writer = null;
  } catch {
    writer?.abandon();
    return null;
  }
  return readBack ? ChunkColumns.readFile(path, key) : null;
}

/** The key of the chunk columns written in `dir`, or null. */
export function storedChunksKey(dir: string): string | null {
  return ChunkColumns.fileKey(`${dir}/${CHUNKS_FILE}`);
}
