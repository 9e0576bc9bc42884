/**
 * The indexing stage that touches file contents: read each file that may have changed,
 * hash it, reuse what an earlier run stored for that content, else parse and chunk it (in
 * workers) and write its blob. Lanes with bounded concurrency keep memory flat.
 *
 * Blobs are keyed by path and content, so a run cut off before its commit leaves them for
 * the next run to reuse; nothing here touches the manifest a reader sees.
 *
 * @module
 */

import { errorMessage } from "../errors.ts";
import { languageForPath } from "../parse/languages.ts";
import type { FileEntry, Store } from "../store/kv.ts";
import type { WalkEntry } from "../types.ts";
import { sha256Hex } from "../util/hash.ts";
import { countLines } from "./extract.ts";
import { createParsePool, type ParsePool } from "./pool.ts";
import { readProjectFile } from "./safe_read.ts";
import { isBinary } from "./walker.ts";

/** The key of a file's parse results: content and path (records carry the path). */
export function blobKey(path: string, contentHash: string): Promise<string> {
  return sha256Hex(new TextEncoder().encode(`${path}\0${contentHash}`));
}

/** What the stage did to the files it was given. */
export interface Ingested {
  /** Their manifest entries (a file whose stored blob vanished mid-run has none). */
  files: FileEntry[];
  /** Files new since the previous index, and files whose content changed. */
  added: number;
  modified: number;
  /** Files parsed (the others reused a stored blob or were skipped). */
  parsed: number;
}

/** Options of the stage. */
export interface IngestOptions {
  /** Parse every file again, even when its content is known. */
  force?: boolean;
  /** Parsing workers (default: one per core; 0 parses on this thread). */
  workers?: number;
  /**
   * Called after each file read as text, with how many files are done. Skipped files
   * (unreadable, binary) count in that number but make no call of their own, as indexing
   * has always reported progress.
   */
  onFile?: (filesDone: number) => void;
}

/** Below this many files to parse, workers cost more than they save. */
const INLINE_LIMIT = 24;

/** Blob writes in flight before a lane waits for them to land. */
const MAX_PENDING_WRITES = 64;

/**
 * Reads, hashes and (where needed) parses `files`, writing a blob for each parsed one.
 * `previous` holds the last manifest's entries by path. Every blob is written when this
 * resolves.
 */
export async function ingest(
  files: readonly WalkEntry[],
  previous: ReadonlyMap<string, FileEntry>,
  store: Store,
  opts: IngestOptions = {},
): Promise<Ingested> {
  const pool = createParsePool(files.length > INLINE_LIMIT ? opts.workers : 0);
  try {
    const out: Ingested = { files: [], added: 0, modified: 0, parsed: 0 };
    const ctx: FileContext = { store, pool, writes: new BlobWrites(), force: opts.force ?? false };
    const queue = [...files];
    let done = 0;
    let failed = false;
    const lane = async () => {
      for (let e = queue.shift(); e && !failed; e = queue.shift()) {
        const old = previous.get(e.path);
        const result = await ingestFile(e, old, ctx);
        if (result.entry) out.files.push(result.entry);
        if (result.hash !== undefined) {
          if (!old) out.added++;
          else if (old.hash !== result.hash) out.modified++;
        }
        if (result.parsed) out.parsed++;
        done++;
        if (result.hash !== undefined) opts.onFile?.(done);
      }
    };
    const lanes = Math.max(2, (opts.workers ?? navigator.hardwareConcurrency ?? 2) * 3);
    // One lane's failure (a full disk) stops the others; all settle before the run fails,
    // so that nothing writes behind the cleanup.
    const settled = await Promise.allSettled(
      Array.from({ length: lanes }, () =>
        lane().catch((err) => {
          failed = true;
          throw err;
        })),
    );
    const flushed = await ctx.writes.flush().then(() => null, (err) => err);
    const failure = settled.find((r) => r.status === "rejected");
    if (failure) throw (failure as PromiseRejectedResult).reason;
    if (flushed) throw flushed;
    return out;
  } finally {
    pool.close();
  }
}

/** What every file of a run shares. */
interface FileContext {
  store: Store;
  pool: ParsePool;
  writes: BlobWrites;
  force: boolean;
}

/** One file's outcome. */
interface FileResult {
  entry: FileEntry | null;
  /** The content hash; absent when the file was skipped (unreadable, binary). */
  hash?: string;
  parsed: boolean;
}

/** Read → hash → reuse the last entry, or a stored blob, or parse and write a new blob. */
async function ingestFile(
  e: WalkEntry,
  old: FileEntry | undefined,
  ctx: FileContext,
): Promise<FileResult> {
  const language = languageForPath(e.path)!.id;
  const base = { path: e.path, size: e.size, mtimeMs: e.mtimeMs, language };
  let bytes: Uint8Array;
  try {
    // Opened and checked: a file swapped for a symlink out of the root or for a FIFO since
    // the walk is refused, never read through or waited on.
    bytes = await readProjectFile(rootOf(e), e.path);
  } catch (err) {
    return { entry: skippedEntry(base, "unreadable", errorMessage(err)), parsed: false };
  }
  if (isBinary(bytes)) return { entry: skippedEntry(base, "binary"), parsed: false };
  const hash = await sha256Hex(bytes);
  const key = await blobKey(e.path, hash);
  const stat = { size: e.size, mtimeMs: e.mtimeMs };
  if (!ctx.force && old && old.hash === hash && !old.skipped) {
    return { entry: { ...old, ...stat }, hash, parsed: false };
  }
  if (!ctx.force && (await ctx.store.hasBlob(key))) {
    // Written by an earlier run that was cut off, or an identical earlier content.
    const meta = await ctx.store.readBlob<FileEntry>("meta", key);
    return { entry: meta ? { ...meta, ...stat } : null, hash, parsed: false };
  }
  const entry = await parseAndStore(base, hash, key, new TextDecoder().decode(bytes), ctx);
  return { entry, hash, parsed: true };
}

/** The root a walk entry was found under. */
function rootOf(e: WalkEntry): string {
  return e.absPath.slice(0, e.absPath.length - e.path.length - 1);
}

/** The identity of a file in its manifest entry. */
type EntryBase = Pick<FileEntry, "path" | "size" | "mtimeMs" | "language">;

/** The entry of a file that is not indexed, and why. */
function skippedEntry(
  base: EntryBase,
  skipped: NonNullable<FileEntry["skipped"]>,
  error?: string,
): FileEntry {
  return {
    ...base,
    hash: "",
    blob: "",
    lines: 0,
    symbols: 0,
    chunks: 0,
    skipped,
    ...(error === undefined ? {} : { error }),
  };
}

/** Parses and chunks one file and queues the write of its blob; returns its entry. */
async function parseAndStore(
  base: EntryBase,
  hash: string,
  key: string,
  text: string,
  ctx: FileContext,
): Promise<FileEntry> {
  const { parsed, chunks, terms, graph } = await ctx.pool.extract(base.path, text, base.language);
  const entry: FileEntry = {
    ...base,
    hash,
    blob: key,
    language: parsed.language,
    lines: parsed.lines || countLines(text),
    symbols: parsed.symbols.length,
    chunks: chunks.length,
    ...(parsed.error ? { error: parsed.error } : {}),
  };
  await ctx.writes.add(
    ctx.store.writeBlob(key, { symbols: parsed.symbols, chunks, terms, graph, meta: entry }),
  );
  return entry;
}

/**
 * Blob writes in flight, shared by the lanes; a lane that overfills it waits for all. Every
 * write is watched from the start: the first failure (a full disk) is kept and thrown by the
 * next `add` or by `flush`, never left as an unhandled rejection.
 */
class BlobWrites {
  private readonly pending: Promise<void>[] = [];
  private failure: unknown = null;

  /** Adds a write; past the limit, waits until every pending write has landed. */
  async add(write: Promise<void>): Promise<void> {
    this.pending.push(write.catch((err) => {
      this.failure ??= err;
    }));
    this.throwIfFailed();
    if (this.pending.length > MAX_PENDING_WRITES) await Promise.all(this.pending.splice(0));
    this.throwIfFailed();
  }

  /** Waits for the writes still pending; throws the first that failed. */
  async flush(): Promise<void> {
    await Promise.all(this.pending.splice(0));
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure !== null) throw this.failure;
  }
}
