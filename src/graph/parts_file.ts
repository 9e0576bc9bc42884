/**
 * The graph parts of a generation in one file beside the store (`graph.bin`), so that a
 * fresh process builds its code graph from one sequential read instead of listing every
 * blob's parts in Deno KV (issue 34: the store's listing and the parts' joining were a fifth
 * of a fresh `codectx refs`). Each entry is a blob's graph part as the store holds it (the
 * JSON `facts/codec.ts` decodes), named by the blob: parts are content-addressed, so the
 * file stays right for any generation that has the same blobs; what it lacks is read from
 * the store, and a process's first build writes the file again when it lacked any.
 *
 * Layout: a head line (`codectx graph parts 1 <version> <store format>`), then per entry the
 * blob's name length (1 byte), its name, the part's length (4 bytes, little-endian) and the
 * part's bytes.
 *
 * @module
 */

import { STORE_FORMAT } from "../store/kv.ts";
import { VERSION } from "../version.ts";
import { AtomicFile } from "../index/columns_io.ts";

/** The file's name in the index folder. */
export const GRAPH_PARTS_FILE = "graph.bin";

const HEAD = new TextEncoder().encode(`codectx graph parts 1 ${VERSION} ${STORE_FORMAT}\n`);
/** How much is read at once. */
const CHUNK = 1 << 20;

/** Reads a file front to back in chunks: `take(n)` hands the next `n` bytes. */
class SequentialReader {
  private buf = new Uint8Array(0);
  private at = 0;
  private end = 0;

  constructor(private readonly file: Deno.FsFile) {}

  /** The next `n` bytes (a view valid until the next call), or null at the end of the file. */
  take(n: number): Uint8Array | null {
    if (this.end - this.at < n) {
      const have = this.end - this.at;
      const next = new Uint8Array(Math.max(CHUNK, n));
      next.set(this.buf.subarray(this.at, this.end));
      let filled = have;
      while (filled < n) {
        const got = this.file.readSync(next.subarray(filled));
        if (got === null) return null;
        filled += got;
      }
      this.buf = next;
      this.at = 0;
      this.end = filled;
    }
    const out = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  /** Passes over the next `n` bytes (read past when buffered, else sought over). */
  skip(n: number): boolean {
    const have = this.end - this.at;
    if (n <= have) {
      this.at += n;
      return true;
    }
    this.at = this.end;
    const to = this.file.seekSync(n - have, Deno.SeekMode.Current);
    return to <= this.file.statSync().size;
  }
}

function openReader(dir: string): { file: Deno.FsFile; reader: SequentialReader } | null {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(`${dir}/${GRAPH_PARTS_FILE}`, { read: true });
  } catch {
    return null;
  }
  const reader = new SequentialReader(file);
  const head = reader.take(HEAD.length);
  if (!head || !head.every((b, i) => b === HEAD[i])) {
    file.close();
    return null;
  }
  return { file, reader };
}

const decoder = new TextDecoder();

/** Each entry's blob name and part (a view valid until the next entry), in file order. */
function eachEntry(
  reader: SequentialReader,
  fn: (blob: string, part: () => Uint8Array | null) => void,
): boolean {
  for (;;) {
    const len = reader.take(1);
    if (len === null) return true;
    const name = reader.take(len[0]);
    const size = reader.take(4);
    if (name === null || size === null) return false;
    const blob = decoder.decode(name);
    const n = size[0] | size[1] << 8 | size[2] << 16 | (size[3] << 24 >>> 0);
    let taken: Uint8Array | null | undefined;
    fn(blob, () => taken ??= reader.take(n));
    if (taken === undefined && !reader.skip(n)) return false;
    if (taken === null) return false;
  }
}

/** The blobs the file holds, or null without a readable file (parts are passed over). */
export function partsFileBlobs(dir: string): Set<string> | null {
  const open = openReader(dir);
  if (!open) return null;
  try {
    const out = new Set<string>();
    return eachEntry(open.reader, (blob) => out.add(blob)) ? out : null;
  } catch {
    return null;
  } finally {
    open.file.close();
  }
}

/**
 * Hands `put` the part of each blob in `wanted` the file holds (bytes as the store holds
 * them, valid during the call); the blobs handed. Nothing when the file is missing or of
 * another version.
 */
export function readPartsFile(
  dir: string,
  wanted: ReadonlySet<string>,
  put: (blob: string, bytes: Uint8Array) => void,
): Set<string> {
  const done = new Set<string>();
  const open = openReader(dir);
  if (!open) return done;
  try {
    eachEntry(open.reader, (blob, part) => {
      if (!wanted.has(blob) || done.has(blob)) return;
      const bytes = part();
      if (!bytes) return;
      put(blob, bytes);
      done.add(blob);
    });
  } catch {
    // a damaged file: what was read is right (each part whole), the rest comes from the store
  } finally {
    open.file.close();
  }
  return done;
}

/**
 * Writes a parts file as parts come (renamed into place at {@link finish}: a reader never
 * sees half of it). Never throws: without the file, the next process reads the store.
 */
export class PartsFileWriter {
  private readonly file: AtomicFile;

  constructor(dir: string) {
    this.file = new AtomicFile(`${dir}/${GRAPH_PARTS_FILE}`);
    this.file.write(HEAD);
  }

  /** Adds a blob's part. */
  add(blob: string, bytes: Uint8Array): void {
    const name = new TextEncoder().encode(blob);
    const head = new Uint8Array(1 + name.length + 4);
    head[0] = name.length;
    head.set(name, 1);
    new DataView(head.buffer).setUint32(1 + name.length, bytes.length, true);
    this.file.write(head);
    this.file.write(bytes);
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
