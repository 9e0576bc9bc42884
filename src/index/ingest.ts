/**
 * The indexing stage that touches file contents: read each file that may have changed,
 * hash it, reuse what an earlier run stored for that content, else parse and chunk it (in
 * workers) and write its blob. Files stream through: a bounded number of lanes each holds
 * one file's bytes until a worker has them; workers send back the blob parts already
 * encoded, and the writes are batched into few store commits behind the parsing.
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
import { tuneNativeHeap } from "../util/native_heap.ts";
import { BlobWriter } from "./blob_writer.ts";
import type { MemoryBudget } from "./memory.ts";
import { isLeanLanguage } from "./lean_pool.ts";
import { createParsePool, type ParsePool } from "./pool.ts";
import { readProjectFile } from "./safe_read.ts";
import { isBinary, minifiedReason } from "./walker.ts";

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
  /** The memory the run may use; past it the run fails, near it files go one at a time. */
  budget?: MemoryBudget;
  /**
   * Called after each file read as text, with how many files are done. Skipped files
   * (unreadable, binary) count in that number but make no call of their own, as indexing
   * has always reported progress.
   */
  onFile?: (filesDone: number) => void;
}

/** Below this many files to parse, workers cost more than they save. */
const INLINE_LIMIT = 24;

/** Files parsed between two restarts of the workers, at least (no thrashing). */
const MIN_FILES_PER_RECYCLE = 64;

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
  const workers = files.length > INLINE_LIMIT ? opts.workers : 0;
  // Blocks of 128 KiB or more (file bytes, messages to and from the workers, the compilers'
  // zones) get mappings of their own, given back when freed, instead of raising glibc's
  // threshold and staying in its arenas: glibc's arenas at the peak 81–100 → 56–61 MiB
  // (bench/README.md, indexing, sixth pass).
  tuneNativeHeap();
  files = leanFirst(files);
  const pool = createParsePool(workers);
  const writer = new BlobWriter(store);
  try {
    const out: Ingested = { files: [], added: 0, modified: 0, parsed: 0 };
    const ctx: FileContext = { store, pool, writer, force: opts.force ?? false };
    let next = 0;
    let done = 0;
    let failed = false;
    let lastRecycle = 0;
    /**
     * Past the budget, restarts the workers once (their heaps go with them) before failing
     * the run. Restarting earlier gave little back (measured: 50–100 MiB of ~300 per
     * worker, regrown within a few hundred files) and each restart compiles the grammars
     * again, so it is kept for the last resort.
     */
    const keepInBudget = async () => {
      const budget = opts.budget;
      if (!budget || !budget.over()) return;
      if (workers !== 0 && done - lastRecycle >= MIN_FILES_PER_RECYCLE) {
        lastRecycle = done;
        await pool.recycle();
      }
      budget.enforce(`after ${done} of ${files.length} files`);
    };
    const lane = async (index: number) => {
      while (!failed && next < files.length) {
        // Near the memory budget one lane goes on alone: one file in flight at a time.
        if (index > 0 && opts.budget?.tight()) return;
        const e = files[next++];
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
        await keepInBudget();
      }
    };
    // Two files per worker keep every worker busy while the next file is read and hashed.
    const lanes = Math.max(2, (workers ?? navigator.hardwareConcurrency ?? 2) * 2);
    // One lane's failure (a full disk, the memory budget) stops the others; all settle
    // before the run fails, so that nothing writes behind the cleanup.
    const settled = await Promise.allSettled(
      Array.from({ length: lanes }, (_, i) =>
        lane(i).catch((err) => {
          failed = true;
          throw err;
        })),
    );
    const flushed = await writer.flush().then(() => null, (err) => err);
    const failure = settled.find((r) => r.status === "rejected");
    if (failure) throw (failure as PromiseRejectedResult).reason;
    if (flushed) throw flushed;
    return out;
  } finally {
    await pool.close();
  }
}

/**
 * The files of grammars parsed in a parse process first, the rest in walk order: the
 * process then runs while the workers' heaps are still small, and ends when those files
 * are done, instead of adding its memory to theirs at their peak.
 */
function leanFirst(files: readonly WalkEntry[]): readonly WalkEntry[] {
  const lean = files.filter((e) => isLeanLanguage(languageForPath(e.path)!.id));
  if (lean.length === 0) return files;
  const rest = files.filter((e) => !isLeanLanguage(languageForPath(e.path)!.id));
  return [...lean, ...rest];
}

/** What every file of a run shares. */
interface FileContext {
  store: Store;
  pool: ParsePool;
  writer: BlobWriter;
  force: boolean;
}

/** One file's outcome. */
interface FileResult {
  entry: FileEntry | null;
  /** The content hash; absent when the file was skipped (unreadable, binary, minified). */
  hash?: string;
  parsed: boolean;
}

/** Read → hash → reuse the last entry, or a stored blob, or parse and write a new blob. */
async function ingestFile(
  e: WalkEntry,
  old: FileEntry | undefined,
  ctx: FileContext,
): Promise<FileResult> {
  const row = languageForPath(e.path)!;
  const base = { path: e.path, size: e.size, mtimeMs: e.mtimeMs, language: row.id };
  let bytes: Uint8Array;
  try {
    // Opened and checked: a file swapped for a symlink out of the root or for a FIFO since
    // the walk is refused, never read through or waited on.
    bytes = await readProjectFile(rootOf(e), e.path);
  } catch (err) {
    return { entry: skippedEntry(base, "unreadable", errorMessage(err)), parsed: false };
  }
  if (isBinary(bytes)) {
    return { entry: skippedEntry(base, "binary", "binary-looking content"), parsed: false };
  }
  // A file no language row names is read as text only when it is UTF-8 (Latin-1 or UTF-16
  // is taken for data).
  if (row.unnamed && !startsAsUtf8(bytes)) {
    const why = "not UTF-8 text (a file of no known language is indexed as plain text only then)";
    return { entry: skippedEntry(base, "binary", why), parsed: false };
  }
  const minified = minifiedReason(bytes);
  if (minified) return { entry: skippedEntry(base, "minified", minified), parsed: false };
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
  const entry = await parseAndStore(base, hash, key, bytes, ctx);
  return { entry, hash, parsed: true };
}

/** Whether the first 8 KiB of `bytes` are UTF-8 (a character cut at the end is allowed). */
function startsAsUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, 8192), { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** The root a walk entry was found under. */
function rootOf(e: WalkEntry): string {
  return e.absPath.slice(0, e.absPath.length - e.path.length - 1);
}

/** The identity of a file in its manifest entry. */
type EntryBase = Pick<FileEntry, "path" | "size" | "mtimeMs" | "language">;

/** The entry of a file that is not indexed, and why. */
export function skippedEntry(
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

const encoder = new TextEncoder();

/** Parses and chunks one file (in a worker) and queues its blob; returns its entry. */
async function parseAndStore(
  base: EntryBase,
  hash: string,
  key: string,
  bytes: Uint8Array,
  ctx: FileContext,
): Promise<FileEntry> {
  const x = await ctx.pool.extract(base.path, bytes, base.language);
  const entry: FileEntry = {
    ...base,
    hash,
    blob: key,
    language: x.language,
    lines: x.lines,
    symbols: x.symbols,
    chunks: x.chunks,
    ...(x.error ? { error: x.error } : {}),
  };
  await ctx.writer.add(key, { ...x.parts, meta: encoder.encode(JSON.stringify(entry)) });
  return entry;
}
