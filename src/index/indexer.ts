/**
 * Incremental, crash-safe indexing of a project root into the store.
 *
 * Pipeline: walk → compare with the current manifest (size, mtime) → read and hash what
 * may have changed → parse and chunk new contents in workers → write blobs → write the
 * new manifest → commit (one atomic flip) → collect garbage.
 */

import { languageForPath } from "../parse/languages.ts";
import { type FileEntry, type Manifest, sha256Hex, type Store } from "../store/kv.ts";
import { countLines } from "./extract.ts";
import { createParsePool, type ParsePool } from "./pool.ts";
import { isBinary, walk } from "./walker.ts";

/**
 * Progress of one indexing run. Phase `embed` comes from the background embedding after a
 * commit; its counts are chunks, not files.
 */
export interface IndexProgress {
  phase: "walk" | "parse" | "write" | "done" | "embed";
  filesDone: number;
  filesTotal: number;
}

/** Options of one run. */
export interface IndexOptions {
  /** Re-parse every file even when unchanged. */
  force?: boolean;
  onProgress?: (p: IndexProgress) => void;
  /** Parsing workers (default: one per core; 0 parses on this thread). */
  workers?: number;
  /** Extra ignore patterns (gitignore syntax). */
  exclude?: string[];
}

/** What one run did. */
export interface IndexReport {
  generation: number;
  files: number;
  chunks: number;
  symbols: number;
  /** Files added, changed or deleted since the previous index. */
  changed: number;
  added: number;
  modified: number;
  deleted: number;
  parsed: number;
  languages: Record<string, number>;
  errors: Array<{ file: string; error: string }>;
  skipped: number;
  elapsedMs: number;
}

/** The key of a file's parse results: content and path (records carry the path). */
export function blobKey(path: string, contentHash: string): Promise<string> {
  return sha256Hex(new TextEncoder().encode(`${path}\0${contentHash}`));
}

/** Below this many files to parse, workers cost more than they save. */
const INLINE_LIMIT = 24;

/**
 * Brings the store up to date with the files under `root` (a real path).
 * Throws when another live process is writing the same index.
 */
export async function runIndex(
  root: string,
  store: Store,
  opts: IndexOptions = {},
): Promise<IndexReport> {
  const t0 = performance.now();
  if (!(await store.acquireLease())) {
    const pid = await store.leaseHolder();
    throw new Error(
      `another codectx process (pid ${pid}) is indexing this project; wait for it to finish or stop it`,
    );
  }
  let pool: ParsePool | null = null;
  try {
    const progress = opts.onProgress ?? (() => {});
    progress({ phase: "walk", filesDone: 0, filesTotal: 0 });
    const entries = await walk(root, {
      accept: (p) => languageForPath(p) !== undefined,
      extraIgnores: opts.exclude,
    });
    const prevGen = await store.currentGeneration();
    const prev = prevGen === null ? null : await store.readCurrent();
    const prevByPath = new Map(prev?.files.map((f) => [f.path, f]) ?? []);

    const next: FileEntry[] = [];
    const toRead = [] as typeof entries;
    for (const e of entries) {
      const old = prevByPath.get(e.path);
      if (!opts.force && old && old.size === e.size && old.mtimeMs === e.mtimeMs) next.push(old);
      else toRead.push(e);
    }
    const seen = new Set(entries.map((e) => e.path));
    const deleted = [...prevByPath.keys()].filter((p) => !seen.has(p)).length;

    let added = 0;
    let modified = 0;
    let parsed = 0;
    const total = toRead.length;
    let done = 0;
    progress({ phase: "parse", filesDone: 0, filesTotal: total });
    const needParse = toRead.length > INLINE_LIMIT ? opts.workers : 0;
    pool = createParsePool(needParse);
    const activePool = pool;
    const writes: Promise<void>[] = [];
    const decoder = new TextDecoder();
    // Read, hash and dispatch with bounded concurrency so memory stays flat.
    const queue = [...toRead];
    const lanes = Math.max(2, (opts.workers ?? navigator.hardwareConcurrency ?? 2) * 3);
    const lane = async () => {
      for (let e = queue.shift(); e; e = queue.shift()) {
        const old = prevByPath.get(e.path);
        const language = languageForPath(e.path)!.id;
        const base = { path: e.path, size: e.size, mtimeMs: e.mtimeMs, language };
        let bytes: Uint8Array;
        try {
          bytes = await Deno.readFile(e.absPath);
        } catch (err) {
          next.push({
            ...base,
            hash: "",
            blob: "",
            lines: 0,
            symbols: 0,
            chunks: 0,
            skipped: "unreadable",
            error: String(err),
          });
          done++;
          continue;
        }
        if (isBinary(bytes)) {
          next.push({
            ...base,
            hash: "",
            blob: "",
            lines: 0,
            symbols: 0,
            chunks: 0,
            skipped: "binary",
          });
          done++;
          continue;
        }
        const hash = await sha256Hex(bytes);
        if (old) modified += old.hash === hash ? 0 : 1;
        else added++;
        const key = await blobKey(e.path, hash);
        if (!opts.force && old && old.hash === hash && !old.skipped) {
          next.push({ ...old, size: e.size, mtimeMs: e.mtimeMs });
        } else if (!opts.force && (await store.hasBlob(key))) {
          // Written by an earlier run that was cut off, or an identical earlier content.
          const meta = await store.readBlob<FileEntry>("meta", key);
          if (meta) next.push({ ...meta, size: e.size, mtimeMs: e.mtimeMs });
        } else {
          const text = decoder.decode(bytes);
          const { parsed: pf, chunks, terms, graph } = await activePool.extract(
            e.path,
            text,
            language,
          );
          parsed++;
          const entry: FileEntry = {
            ...base,
            hash,
            blob: key,
            language: pf.language,
            lines: pf.lines || countLines(text),
            symbols: pf.symbols.length,
            chunks: chunks.length,
            ...(pf.error ? { error: pf.error } : {}),
          };
          next.push(entry);
          writes.push(
            store.writeBlob(key, { symbols: pf.symbols, chunks, terms, graph, meta: entry }),
          );
          if (writes.length > 64) await Promise.all(writes.splice(0));
        }
        done++;
        if (done % 50 === 0 || done === total) {
          progress({ phase: "parse", filesDone: done, filesTotal: total });
        }
      }
    };
    await Promise.all(Array.from({ length: lanes }, lane));
    await Promise.all(writes);
    pool.close();
    pool = null;

    const changed = added + modified + deleted;
    const elapsed = () => Math.round(performance.now() - t0);
    next.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    let generation = prevGen ?? 0;
    if (changed > 0 || prev === null || opts.force) {
      progress({ phase: "write", filesDone: total, filesTotal: total });
      generation = (prevGen ?? 0) + 1;
      await store.dropGenerationsExcept(prevGen);
      const manifest: Manifest = {
        generation,
        createdAt: new Date().toISOString(),
        elapsedMs: elapsed(),
        files: next,
      };
      await store.writeManifest(manifest);
      if (!(await store.commit(generation, prevGen))) {
        throw new Error("the index changed while indexing; run the indexing again");
      }
      await store.collectGarbage();
    }
    progress({ phase: "done", filesDone: total, filesTotal: total });
    return summarize(next, {
      generation,
      changed,
      added,
      modified,
      deleted,
      parsed,
      elapsedMs: elapsed(),
    });
  } finally {
    pool?.close();
    await store.releaseLease();
  }
}

/** Totals of a manifest's files. */
export function summarize(
  files: FileEntry[],
  extra: Omit<IndexReport, "files" | "chunks" | "symbols" | "languages" | "errors" | "skipped">,
): IndexReport {
  let chunks = 0;
  let symbols = 0;
  let skipped = 0;
  const languages: Record<string, number> = {};
  const errors: Array<{ file: string; error: string }> = [];
  for (const f of files) {
    if (f.skipped) {
      skipped++;
      continue;
    }
    chunks += f.chunks;
    symbols += f.symbols;
    languages[f.language] = (languages[f.language] ?? 0) + 1;
    if (f.error) errors.push({ file: f.path, error: f.error });
  }
  return { ...extra, files: files.length - skipped, chunks, symbols, languages, errors, skipped };
}
