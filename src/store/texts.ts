/**
 * Chunk texts out of the heap. A server keeps every chunk of the loaded index for search, but
 * needs a chunk's text only for the few results it presents (and once per chunk to embed
 * it): on the Python standard library the texts were 31.5 M characters, ~46 MiB of heap with
 * their records, and more while all chunk blobs were being read at once. The read model
 * writes each file's chunk texts, as it loads them from the store, into a process-private
 * file (created in the temporary folder and unlinked at once: nothing is left behind, even
 * after a kill) and keeps per chunk only where its text lies; `text` reads it back.
 *
 * Where no such file can be written (no write permission, a full disk) chunks keep their
 * text in memory, as before.
 *
 * @module
 */

import type { ChunkRecord, SymbolKind } from "../types.ts";

/** Bytes past which a spill file is rewritten without the texts of files no longer loaded. */
const COMPACT_MIN_DEAD = 32 * 1024 * 1024;

/** Texts kept after reading (a result's chunk is read a few times while it is presented). */
const RECENT_TEXTS = 64;

/** Where one blob's texts lie in the spill file (moved as one when the file is compacted). */
interface Region {
  spill: TextSpill;
  at: number;
  bytes: number;
}

/** A chunk whose text is read back from the spill file when asked for. */
class SpilledChunk implements ChunkRecord {
  constructor(
    /** The id when it is not the usual `file:start-end` (made on demand then). */
    private readonly ownId: string | null,
    readonly file: string,
    readonly startLine: number,
    readonly endLine: number,
    readonly symbol: string | null,
    readonly kind: SymbolKind | null,
    readonly language: string,
    private readonly region: Region,
    /** Offset of the text inside the region, and its length, in UTF-8 bytes. */
    private readonly offset: number,
    private readonly bytes: number,
  ) {}

  get id(): string {
    return this.ownId ?? `${this.file}:${this.startLine}-${this.endLine}`;
  }

  get text(): string {
    return this.region.spill.read(this.region.at + this.offset, this.bytes);
  }

  /**
   * Where the texts of `chunks` lie when they follow each other in one spill file (one blob's
   * chunks, in order): the file, the first byte and each text's length; else null.
   */
  static span(
    chunks: readonly ChunkRecord[],
  ): { spill: TextSpill; at: number; lengths: Uint32Array } | null {
    const first = chunks[0];
    if (!(first instanceof SpilledChunk)) return null;
    const lengths = new Uint32Array(chunks.length);
    let next = first.region.at + first.offset;
    for (let i = 0; i < chunks.length; i++) {
      const c = chunks[i];
      if (
        !(c instanceof SpilledChunk) || c.region.spill !== first.region.spill ||
        c.region.at + c.offset !== next
      ) return null;
      lengths[i] = c.bytes;
      next += c.bytes;
    }
    return { spill: first.region.spill, at: first.region.at + first.offset, lengths };
  }
}

/**
 * The texts of `chunks` as UTF-8 in one read, with each one's length in bytes, when they lie
 * one after another in a spill file (one blob's chunks, in order); else null.
 */
export function spilledTextBytes(
  chunks: readonly ChunkRecord[],
): { bytes: Uint8Array; lengths: Uint32Array } | null {
  const span = chunks.length ? SpilledChunk.span(chunks) : null;
  if (!span) return null;
  let total = 0;
  for (const n of span.lengths) total += n;
  return { bytes: span.spill.bytes(span.at, total), lengths: span.lengths };
}

/** One blob's chunks, as the read model caches them. */
export interface LoadedChunks {
  chunks: ChunkRecord[];
  /** Where their texts lie (null: held in memory). */
  region: Region | null;
}

/**
 * A process-private file of chunk texts (see the module note).
 *
 * @example
 * ```ts
 * const spill = TextSpill.create();
 * const loaded = spill.take(chunksFromTheStore); // the same chunks, texts read back on use
 * loaded.chunks[0].text;
 * spill.close();
 * ```
 */
export class TextSpill {
  private size = 0;
  private dead = 0;
  private failed = false;
  private readonly strings = new Map<string, string>();
  /** Texts read last, by offset (see `read`). */
  private readonly recent = new Map<number, { bytes: number; text: string }>();
  private readonly enc = new TextEncoder();
  private readonly dec = new TextDecoder();
  private buf = new Uint8Array(64 * 1024);

  private constructor(private file: Deno.FsFile | null) {}

  /** A new spill file; one that keeps texts in memory when no file can be made. */
  static create(): TextSpill {
    return new TextSpill(openPrivateFile());
  }

  /** Whether texts go to a file (false: they stay in memory). */
  get spilling(): boolean {
    return this.file !== null;
  }

  /**
   * Takes one blob's chunks: their texts are written to the file and the chunks returned
   * read them back. When the write fails the chunks are returned as they are (texts in
   * memory) and the file is given up for later blobs.
   */
  take(chunks: readonly ChunkRecord[]): LoadedChunks {
    if (!this.file || this.failed || chunks.length === 0) {
      return { chunks: [...chunks], region: null };
    }
    let total = 0;
    for (const c of chunks) total += c.text.length * 3;
    if (this.buf.length < total) this.buf = new Uint8Array(Math.max(total, this.buf.length * 2));
    const offsets: number[] = [];
    let used = 0;
    for (const c of chunks) {
      offsets.push(used);
      used += this.enc.encodeInto(c.text, this.buf.subarray(used)).written;
    }
    const at = this.size;
    try {
      this.writeAt(at, this.buf.subarray(0, used));
    } catch {
      // A full disk: later blobs keep their texts in memory; the regions written stay readable.
      this.failed = true;
      return { chunks: [...chunks], region: null };
    }
    this.size += used;
    const region: Region = { spill: this, at, bytes: used };
    const out = chunks.map((c, i) =>
      new SpilledChunk(
        c.id === `${c.file}:${c.startLine}-${c.endLine}` ? null : c.id,
        this.intern(c.file),
        c.startLine,
        c.endLine,
        c.symbol,
        c.kind,
        this.intern(c.language),
        region,
        offsets[i],
        (i + 1 < chunks.length ? offsets[i + 1] : used) - offsets[i],
      )
    );
    return { chunks: out, region };
  }

  /** One string per path and language (each chunk of a blob had its own copy). */
  private intern(s: string): string {
    let hit = this.strings.get(s);
    if (hit === undefined) this.strings.set(s, hit = s);
    return hit;
  }

  /** Counts a blob the read model no longer holds; its bytes are dropped at the next compaction. */
  release(loaded: LoadedChunks): void {
    if (loaded.region?.spill === this) this.dead += loaded.region.bytes;
  }

  /**
   * Rewrites the file with only the regions of `live` when most of it is dead (the texts of
   * files that changed since). Regions move in place: their chunks keep working.
   */
  compact(live: Iterable<LoadedChunks>): void {
    if (
      !this.file || this.failed || this.dead < COMPACT_MIN_DEAD || this.dead < this.size - this.dead
    ) return;
    const next = openPrivateFile();
    if (!next) return;
    const regions = [
      ...new Set([...live].map((l) => l.region).filter((r): r is Region => r?.spill === this)),
    ];
    const moved: number[] = [];
    let size = 0;
    try {
      for (const r of regions) {
        writeFully(next, size, this.readBytes(r.at, r.bytes));
        moved.push(size);
        size += r.bytes;
      }
    } catch {
      next.close();
      return; // the old file still holds every region
    }
    regions.forEach((r, i) => r.at = moved[i]);
    this.recent.clear();
    this.file.close();
    this.file = next;
    this.size = size;
    this.dead = 0;
  }

  /**
   * Reads `bytes` at `at` as text. The last few are kept: presenting a result reads its
   * chunk's text several times (snippet, member pointing, overloads).
   */
  read(at: number, bytes: number): string {
    // Two texts start at one offset only when the first is empty: the length tells them apart.
    const hit = this.recent.get(at);
    if (hit !== undefined && hit.bytes === bytes) return hit.text;
    const text = this.dec.decode(this.readBytes(at, bytes));
    this.recent.delete(at);
    this.recent.set(at, { bytes, text });
    if (this.recent.size > RECENT_TEXTS) this.recent.delete(this.recent.keys().next().value!);
    return text;
  }

  /** `bytes` bytes of the file from `at`, undecoded. */
  bytes(at: number, bytes: number): Uint8Array {
    return this.readBytes(at, bytes);
  }

  close(): void {
    try {
      this.file?.close();
    } catch {
      // closed
    }
    this.file = null;
  }

  private readBytes(at: number, bytes: number): Uint8Array {
    const out = new Uint8Array(bytes);
    if (!this.file) throw new Error("chunk texts are no longer readable (the index was closed)");
    this.file.seekSync(at, Deno.SeekMode.Start);
    let got = 0;
    while (got < bytes) {
      const n = this.file.readSync(out.subarray(got));
      if (n === null || n === 0) throw new Error("chunk text file ended early");
      got += n;
    }
    return out;
  }

  private writeAt(at: number, bytes: Uint8Array): void {
    writeFully(this.file!, at, bytes);
  }
}

function writeFully(file: Deno.FsFile, at: number, bytes: Uint8Array): void {
  file.seekSync(at, Deno.SeekMode.Start);
  let done = 0;
  while (done < bytes.length) done += file.writeSync(bytes.subarray(done));
}

/** A read-write file in the temporary folder, unlinked at once; null when none can be made. */
function openPrivateFile(): Deno.FsFile | null {
  try {
    // Without write permission (or with it for some folders only) texts stay in memory:
    // asking would prompt the user of an embedding program.
    if (Deno.permissions.querySync({ name: "write" }).state !== "granted") return null;
    const path = Deno.makeTempFileSync({ prefix: "codectx-texts-" });
    const file = Deno.openSync(path, { read: true, write: true });
    Deno.removeSync(path);
    return file;
  } catch {
    return null;
  }
}
