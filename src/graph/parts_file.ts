/**
 * The graph parts of a generation in one file beside the store (`graph.bin`), so that a
 * fresh process builds its code graph from one read instead of listing every blob's parts in
 * Deno KV and parsing their JSON (issue 34: the listing and joining were a fifth of a fresh
 * `codectx refs`, the JSON a seventh of a fresh `explain` with the collector it fed). Each
 * entry is a blob's graph part in the packed form of `facts/codec.ts` (its reference rows
 * viewed where they lie, the rest read when first asked), named by the blob: parts are
 * content-addressed, so the file stays right for any generation that has the same blobs;
 * what it lacks is read from the store, and a process's first build writes the file again
 * when it lacked any.
 *
 * Layout: a head line (`codectx graph parts 2 <version> <store format>`) padded with NULs to
 * a multiple of 4 bytes, the key of the blobs it was written for (64 hex digits: a run that
 * changed nothing reads that much of it), then per entry the blob's name length and the part's
 * length (32-bit little-endian words), the name padded to a multiple of 4 bytes and the part
 * (a multiple of 4 bytes).
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
  decodePackedPart,
  encodePackedPart,
  GRAPH_PART,
  type GraphPart,
  type StoredPart,
} from "../facts/codec.ts";
import type { RunHook } from "../project/project.ts";

/** The file's name in the index folder. */
export const GRAPH_PARTS_FILE = "graph.bin";

const HEAD = padded(new TextEncoder().encode(`codectx graph parts 2 ${VERSION} ${STORE_FORMAT}\n`));

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

/**
 * The parts `graph.bin` holds, by blob (views into one read of the file, each 4-byte
 * aligned), and the key it was written for; null without a readable file of this version.
 */
export function readPartsFile(
  dir: string,
): { key: string; parts: Map<string, Uint8Array> } | null {
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(`${dir}/${GRAPH_PARTS_FILE}`);
  } catch {
    return null;
  }
  const key = keyOf(bytes);
  if (key === null) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const out = new Map<string, Uint8Array>();
  // A cut-off file: the entries before the cut are whole, the rest comes from the store.
  for (let at = HEAD.length + KEY_LENGTH; at + 8 <= bytes.length;) {
    const nameLength = view.getUint32(at, true);
    const partLength = view.getUint32(at + 4, true);
    const partAt = at + 8 + ((nameLength + 3) & ~3);
    if (partAt + partLength > bytes.length) break;
    out.set(
      decoder.decode(bytes.subarray(at + 8, at + 8 + nameLength)),
      bytes.subarray(partAt, partAt + partLength),
    );
    at = partAt + partLength;
  }
  return { key, parts: out };
}

/** The blobs the file holds, or null without a readable file. */
export function partsFileBlobs(dir: string): Set<string> | null {
  const file = readPartsFile(dir);
  return file && new Set(file.parts.keys());
}

/**
 * Writes a parts file as parts come (renamed into place at {@link finish}: a reader never
 * sees half of it). Never throws: without the file, the next process reads the store.
 */
export class PartsFileWriter {
  private readonly file: AtomicFile;

  /** `key`: {@link partsKey} of the blobs it is written for. */
  constructor(dir: string, key: string) {
    this.file = new AtomicFile(`${dir}/${GRAPH_PARTS_FILE}`);
    this.file.write(HEAD);
    this.file.write(new TextEncoder().encode(key));
  }

  /** Adds a blob's part, in packed form (a multiple of 4 bytes). */
  add(blob: string, packed: Uint8Array): void {
    const name = new TextEncoder().encode(blob);
    const head = new Uint8Array(8 + ((name.length + 3) & ~3));
    const view = new DataView(head.buffer);
    view.setUint32(0, name.length, true);
    view.setUint32(4, packed.length, true);
    head.set(name, 8);
    this.file.write(head);
    this.file.write(packed);
  }

  /** Puts the file in place; whether it was written. */
  finish(): boolean {
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
  const rest = new Set([...need].filter((k) => !file?.parts.has(k)));
  // A file that holds these blobs and no other is right as it is (its key not hashed: a
  // fifth of reading it); written for other blobs, or cut off: written again.
  const exact = rest.size === 0 && file?.parts.size === need.size;
  const key = rewrite && !exact ? await partsKey(need) : null;
  const writer = key !== null && (file?.key !== key || rest.size > 0)
    ? new PartsFileWriter(store.dir, key)
    : null;
  for (const k of need) {
    const packed = file?.parts.get(k);
    if (!packed) continue;
    put?.(k, decodePackedPart(packed));
    writer?.add(k, packed);
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
