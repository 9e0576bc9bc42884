/**
 * The graph parts of a generation in one file beside the store (`graph.bin`), so that a
 * fresh process builds its code graph from one read instead of listing every blob's parts in
 * Deno KV and parsing their JSON (issue 34: the listing and joining were a fifth of a fresh
 * `codectx refs`, the JSON a seventh of a fresh `explain` with the collector it fed). Each
 * entry is a blob's graph part in the packed form of `facts/codec.ts` (its reference rows
 * viewed where they lie, the rest read when first asked), named by the blob: parts are
 * content-addressed, so the file stays right for any generation that has the same blobs;
 * what it lacks is read from the store, and a process's first build writes the file again
 * when it lacked any. A part's reference rows (four fifths of the file) lie apart from the
 * rest of it and are read when first asked: a command reads the rows of the few files that
 * name what it asks about, not the whole file.
 *
 * Layout: a head line (`codectx graph parts 3 <version> <store format>`) padded with NULs to
 * a multiple of 4 bytes, the key of the blobs it was written for (64 hex digits: a run that
 * changed nothing reads that much of it), every part's reference rows one after the other,
 * the table, and at the end the table's offset and length (two float64s, little-endian). The
 * table holds per entry the blob's name length and the length of the part without its rows
 * (32-bit little-endian words), the offset of its rows (a float64), the name padded to a
 * multiple of 4 bytes and the part without its rows (`facts/codec.ts` splitPackedPart, a
 * multiple of 4 bytes).
 *
 * @module
 */

import { type Store, STORE_FORMAT } from "../store/kv.ts";
import { parseJson } from "../store/parts.ts";
import { VERSION } from "../version.ts";
import { sha256Hex } from "../util/hash.ts";
import { AtomicFile } from "../index/columns_io.ts";
import {
  decodeFacts,
  decodeSplitPart,
  encodePackedPart,
  GRAPH_PART,
  type GraphPart,
  splitPackedPart,
  splitRowCount,
  type StoredPart,
} from "../facts/codec.ts";
import type { RunHook } from "../project/project.ts";

/** The file's name in the index folder. */
export const GRAPH_PARTS_FILE = "graph.bin";

const HEAD = padded(new TextEncoder().encode(`codectx graph parts 3 ${VERSION} ${STORE_FORMAT}\n`));

/** `bytes` followed by NULs up to a multiple of 4 bytes. */
function padded(bytes: Uint8Array): Uint8Array {
  if (bytes.length % 4 === 0) return bytes;
  const out = new Uint8Array((bytes.length + 3) & ~3);
  out.set(bytes);
  return out;
}

const decoder = new TextDecoder();
/** Bytes of the key after the head. */
const KEY_LENGTH = 64;

/** The key of a set of blobs: what the file's head names. */
export async function partsKey(blobs: ReadonlySet<string>): Promise<string> {
  return await sha256Hex(new TextEncoder().encode([...blobs].sort().join("\n")));
}

/** The key in the head of `bytes` (a file's start), or null when not a file of this version. */
function keyOf(bytes: Uint8Array): string | null {
  if (bytes.length < HEAD.length + KEY_LENGTH || !HEAD.every((b, i) => b === bytes[i])) {
    return null;
  }
  return decoder.decode(bytes.subarray(HEAD.length, HEAD.length + KEY_LENGTH));
}

/** The key `graph.bin` was written for (its head only), or null. */
export function partsFileKey(dir: string): string | null {
  try {
    using file = Deno.openSync(`${dir}/${GRAPH_PARTS_FILE}`, { read: true });
    const head = new Uint8Array(HEAD.length + KEY_LENGTH);
    let filled = 0;
    while (filled < head.length) {
      const got = file.readSync(head.subarray(filled));
      if (got === null) return null;
      filled += got;
    }
    return keyOf(head);
  } catch {
    return null;
  }
}

/** Bytes of the end of the file: the table's offset and length. */
const TAIL = 16;

/** One part of the file: the part without its rows, and where its rows are. */
interface FileEntry {
  rest: Uint8Array;
  rowsAt: number;
}

/** An open `graph.bin`: its key and its parts, whose rows are read when first asked. */
export interface PartsFile {
  key: string;
  /** The blobs it holds. */
  readonly blobs: ReadonlySet<string>;
  /** The part of `blob` (its rows read from the file when first asked), or undefined. */
  part(blob: string): GraphPart | undefined;
  /** The part of `blob` packed as the file holds it (its rest and its rows), or undefined. */
  packed(blob: string): { rest: Uint8Array; rows: Uint8Array } | undefined;
}

/** Closes the file a {@link PartsFile} reads rows from once nothing holds it. */
const closer = new FinalizationRegistry<Deno.FsFile>((file) => {
  try {
    file.close();
  } catch {
    // closed already
  }
});

/** Reads `length` bytes at `at` (an early end throws). */
function readAt(file: Deno.FsFile, at: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  file.seekSync(at, Deno.SeekMode.Start);
  for (let got = 0; got < length;) {
    const n = file.readSync(out.subarray(got));
    if (n === null) throw new Error("graph.bin: cut off");
    got += n;
  }
  return out;
}

/**
 * The parts `graph.bin` holds (its table read, no row yet) and the key it was written for;
 * null without a readable, whole file of this version. The file stays open while a part of it
 * is held (its rows are read from it: a file written over meanwhile is another file).
 */
export function readPartsFile(dir: string): PartsFile | null {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(`${dir}/${GRAPH_PARTS_FILE}`, { read: true });
  } catch {
    return null;
  }
  let entries: Map<string, FileEntry>;
  let key: string | null;
  try {
    const size = file.statSync().size;
    const start = HEAD.length + KEY_LENGTH;
    if (size < start + TAIL) throw new Error("short");
    key = keyOf(readAt(file, 0, start));
    const tail = new DataView(readAt(file, size - TAIL, TAIL).buffer);
    const tableAt = tail.getFloat64(0, true);
    const tableLength = tail.getFloat64(8, true);
    // Written whole or not at all: a table that does not end where the tail starts is not one.
    if (key === null || tableAt < start || tableAt + tableLength !== size - TAIL) {
      throw new Error("not a whole file of this version");
    }
    const table = readAt(file, tableAt, tableLength);
    const view = new DataView(table.buffer);
    entries = new Map();
    for (let at = 0; at < table.length;) {
      const nameLength = view.getUint32(at, true);
      const restLength = view.getUint32(at + 4, true);
      const rowsAt = view.getFloat64(at + 8, true);
      const restAt = at + 16 + ((nameLength + 3) & ~3);
      if (restAt + restLength > table.length) throw new Error("table cut off");
      const rest = table.subarray(restAt, restAt + restLength);
      if (rowsAt < start || rowsAt + splitRowCount(rest) * 4 > tableAt) {
        throw new Error("rows outside the file");
      }
      entries.set(decoder.decode(table.subarray(at + 16, at + 16 + nameLength)), { rest, rowsAt });
      at = restAt + restLength;
    }
  } catch {
    file.close();
    return null;
  }
  // A part's rows are read through `out`: a part held keeps it (and so the file) open — the
  // file closed when `out` alone was collected while its parts were still read (Bad resource ID).
  const rows = (e: FileEntry) => readAt(out.file, e.rowsAt, splitRowCount(e.rest) * 4);
  const out: PartsFile & { file: Deno.FsFile } = {
    file,
    key,
    blobs: new Set(entries.keys()),
    part(blob) {
      const e = entries.get(blob);
      return e && decodeSplitPart(e.rest, () => new Int32Array(rows(e).buffer));
    },
    packed(blob) {
      const e = entries.get(blob);
      return e && { rest: e.rest, rows: rows(e) };
    },
  };
  closer.register(out, file);
  return out;
}

/** The blobs the file holds, or null without a readable file. */
export function partsFileBlobs(dir: string): Set<string> | null {
  const file = readPartsFile(dir);
  return file && new Set(file.blobs);
}

/**
 * Writes a parts file as parts come (renamed into place at {@link finish}: a reader never
 * sees half of it). Never throws: without the file, the next process reads the store.
 */
export class PartsFileWriter {
  private readonly file: AtomicFile;
  /** The table, entry by entry (written after the rows). */
  private readonly table: Uint8Array[] = [];
  /** Where the next rows go. */
  private at = HEAD.length + KEY_LENGTH;

  /** `key`: {@link partsKey} of the blobs it is written for. */
  constructor(dir: string, key: string) {
    this.file = new AtomicFile(`${dir}/${GRAPH_PARTS_FILE}`);
    this.file.write(HEAD);
    this.file.write(new TextEncoder().encode(key));
  }

  /** Adds a blob's part, packed (`facts/codec.ts`), whole or split. */
  add(blob: string, packed: Uint8Array | { rest: Uint8Array; rows: Uint8Array }): void {
    const { rest, rows } = packed instanceof Uint8Array ? splitPackedPart(packed) : packed;
    const name = new TextEncoder().encode(blob);
    const head = new Uint8Array(16 + ((name.length + 3) & ~3));
    const view = new DataView(head.buffer);
    view.setUint32(0, name.length, true);
    view.setUint32(4, rest.length, true);
    view.setFloat64(8, this.at, true);
    head.set(name, 16);
    this.table.push(head, rest);
    this.file.write(rows);
    this.at += rows.length;
  }

  /** Puts the file in place; whether it was written. */
  finish(): boolean {
    let length = 0;
    for (const b of this.table) {
      this.file.write(b);
      length += b.length;
    }
    const tail = new DataView(new ArrayBuffer(TAIL));
    tail.setFloat64(0, this.at, true);
    tail.setFloat64(8, length, true);
    this.file.write(new Uint8Array(tail.buffer));
    return this.file.finish();
  }

  /** Drops what was written. */
  abort(): void {
    this.file.abort();
  }
}

/** Above this many parts wanted, they are read through the file (fewer: one by one from the store). */
export const MANY_PARTS = 64;

/**
 * The graph parts of the blobs in `need`, each handed to `put` when given: those `graph.bin`
 * holds from it, the rest in one pass over the store. With `rewrite`, the file is written
 * again when it was written for other blobs (without `put`, only its head is read when it
 * was written for these).
 */
export async function eachGraphPart(
  store: Store,
  need: ReadonlySet<string>,
  rewrite: boolean,
  put?: (blob: string, part: GraphPart) => void,
): Promise<void> {
  if (!put) {
    const key = rewrite ? await partsKey(need) : null;
    if (key === null || partsFileKey(store.dir) === key) return;
  }
  const file = readPartsFile(store.dir);
  const rest = new Set([...need].filter((k) => !file?.blobs.has(k)));
  // A file that holds these blobs and no other is right as it is (its key not hashed: a
  // fifth of reading it); written for other blobs, or cut off: written again.
  const exact = rest.size === 0 && file?.blobs.size === need.size;
  const key = rewrite && !exact ? await partsKey(need) : null;
  const writer = key !== null && (file?.key !== key || rest.size > 0)
    ? new PartsFileWriter(store.dir, key)
    : null;
  for (const k of need) {
    const part = file?.part(k);
    if (!part) continue;
    put?.(k, part);
    if (writer) writer.add(k, file!.packed(k)!);
  }
  try {
    if (rest.size) {
      await store.eachBlobBytes(GRAPH_PART, rest, (k, bytes) => {
        const stored = parseJson<StoredPart>(bytes);
        put?.(k, decodeFacts(stored));
        writer?.add(k, encodePackedPart(stored));
      });
    }
    writer?.finish();
  } catch (err) {
    writer?.abort();
    throw err;
  }
}

/**
 * What an indexing run leaves for the graph: after the commit of a process's first run (or
 * a large generation's), `graph.bin` holds every part of the generation, so that the first
 * `explain` or `refs` after `codectx index` reads it instead of writing it.
 */
export function graphPartsRunHook(): RunHook {
  return {
    async afterCommit(project) {
      const manifest = await project.store.readCurrent();
      if (!manifest) return;
      const need = new Set<string>();
      for (const f of manifest.files) if (!f.skipped) need.add(f.blob);
      if (need.size > MANY_PARTS) await eachGraphPart(project.store, need, true);
    },
  };
}
