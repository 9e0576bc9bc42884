/**
 * The lexical index of a project's current generation, rebuilt when the generation changes
 * from the per-file `terms` parts, of which only new blobs are read from the store.
 *
 * A built index is also written beside the store (`lexical.bin` in the index folder, named
 * by what it was built from: codectx version and store format, the BM25 parameters, every
 * file's blob and row count), so
 * that a process opening an unchanged index reads it back (typed-array views, nothing
 * tokenised) instead of reading every file's terms and building it again: the first query
 * after a start costs what the next ones do.
 *
 * @module
 */

import type { Generation, Project, RunHook } from "../project/project.ts";
import { slot } from "../util/memo.ts";
import { createPool } from "../util/worker_pool.ts";
import {
  type Bm25Params,
  buildLexicalIndexFrom,
  decodeLexicalIndex,
  DEFAULT_BM25,
  type LexicalIndex,
} from "./lexical.ts";
import type { ChunkTable } from "./table.ts";
import { TermCounter, type TermCounts, type TermsFile, type TermsLike } from "./lexical_build.ts";
import { decodeTerms, isBinaryTerms } from "../index/terms.ts";
import { sha256Hex } from "../util/hash.ts";
import { type Manifest, Store, STORE_FORMAT } from "../store/kv.ts";
import { VERSION } from "../version.ts";

/** The file, in the index folder, that holds the last built lexical index. */
export const LEXICAL_FILE = "lexical.bin";

/**
 * A generation's lexical index (for the parameters last asked) and the terms of the files it
 * read, which the next generation's build reuses for unchanged files.
 */
interface Lexical {
  terms: Map<string, TermsLike>;
  params: Bm25Params | null;
  index: Promise<LexicalIndex> | null;
}

const LEXICAL = slot<Generation, Lexical>("lexical index", (_, previous) => ({
  terms: previous?.terms ?? new Map<string, TermsLike>(),
  params: null,
  index: null,
}));

/**
 * The BM25F index of `table`'s generation (built once per generation and parameters).
 *
 * @example
 * ```ts
 * const lex = await lexicalIndexFor(project, await chunkTable(project));
 * ```
 */
export function lexicalIndexFor(
  project: Project,
  table: ChunkTable,
  params: Bm25Params = DEFAULT_BM25,
): Promise<LexicalIndex> {
  const held = table.index.memo.get(LEXICAL);
  if (held.index && held.params === params) return held.index;
  const index = build(project, table, params, held.terms);
  held.params = params;
  held.index = index;
  index.catch(() => {
    if (held.index === index) held.index = null;
  });
  return index;
}

/**
 * The lexical index of `table`'s generation if one was built or asked for already (any
 * parameters: the rows a term occurs in do not depend on them), else null — for a reader
 * that can do without it and should not pay for a build.
 */
export function heldLexicalIndex(table: ChunkTable): Promise<LexicalIndex> | null {
  return table.index.memo.get(LEXICAL).index;
}

/**
 * The lexical index of `table`'s generation when it costs no build: held already, or read back
 * from a current `lexical.bin` (a fresh CLI process: an exact search and `refs`' text check look
 * up the rows a word starts in instead of scanning every chunk — the stdlib's text scan took
 * 250–450 ms); else null.
 */
export async function readyLexicalIndex(
  project: Project,
  table: ChunkTable,
): Promise<LexicalIndex | null> {
  const held = heldLexicalIndex(table);
  if (held) return await held;
  // Looked for once per table: a small index has no `lexical.bin`, and each exact search of a
  // server would hash every file's key and open the missing file again.
  const looked = table.memo.get(LOOKED_FOR_FILE);
  if (looked.done) return null;
  looked.done = true;
  const key = await buildKey(tableFiles(table), DEFAULT_BM25);
  return storedKey(project.store.dir) === key ? await lexicalIndexFor(project, table) : null;
}

/** Whether {@link readyLexicalIndex} looked for a current `lexical.bin` for a table already. */
const LOOKED_FOR_FILE = slot("lexical.bin looked for", (_: ChunkTable) => ({ done: false }));

/**
 * What an index is built from: the codectx version and store format (the terms of a blob
 * are what this version computes; blob keys name only a file's path and content), the
 * parameters, and each file's blob and row count.
 */
async function buildKey(files: readonly TermsFile[], params: Bm25Params): Promise<string> {
  const parts = [`${VERSION} ${STORE_FORMAT}`, JSON.stringify(params)];
  for (const f of files) parts.push(`${f.key} ${f.rows}`);
  return await sha256Hex(new TextEncoder().encode(parts.join("\n")));
}

/** The files of a chunk table: their blob, first row and row count. */
function tableFiles(table: ChunkTable): TermsFile[] {
  return table.files.map((f) => ({ key: f.blob, start: f.start, rows: f.end - f.start }));
}

/**
 * The same files from the manifest alone, as the chunk table will lay them out (files with
 * chunks, in manifest order, each file's chunk count), without loading any chunk.
 */
function manifestFiles(manifest: Manifest): TermsFile[] {
  const files: TermsFile[] = [];
  let start = 0;
  for (const f of manifest.files) {
    if (f.skipped || !f.blob || f.chunks === 0) continue;
    files.push({ key: f.blob, start, rows: f.chunks });
    start += f.chunks;
  }
  return files;
}

/**
 * The whole file in one buffer of its size (`Deno.readFile` grew its buffer as it read:
 * the kernel's 632 MiB file peaked at twice that).
 */
async function readWhole(path: string): Promise<Uint8Array> {
  const file = await Deno.open(path, { read: true });
  try {
    const out = new Uint8Array((await file.stat()).size);
    let got = 0;
    while (got < out.length) {
      const n = await file.read(out.subarray(got));
      if (n === null) throw new Error(`${path} ends early`);
      got += n;
    }
    return out;
  } finally {
    file.close();
  }
}

/** The key `lexical.bin` in `dir` was built from (its header only), or null. */
function storedKey(dir: string): string | null {
  try {
    const file = Deno.openSync(`${dir}/${LEXICAL_FILE}`, { read: true });
    try {
      const first = new Uint8Array(12);
      if (file.readSync(first) !== 12) return null;
      const length = new DataView(first.buffer).getUint32(8, true);
      const head = new Uint8Array(length);
      let got = 0;
      while (got < length) {
        const n = file.readSync(head.subarray(got));
        if (n === null) return null;
        got += n;
      }
      return JSON.parse(new TextDecoder().decode(head)).key ?? null;
    } finally {
      file.close();
    }
  } catch {
    return null;
  }
}

/**
 * Builds `lexical.bin` for the project's current generation unless it is there already
 * (an indexing run calls it, so that no query builds the index); whether it built. The
 * index is built from the store's terms alone: no chunk is loaded. Only a large index
 * (over `minRows` rows, default {@link CACHE_MAX_ROWS}) is built here: a small one takes its first query about
 * a second (the Python standard library), and a server updates it from the files that
 * changed, where building it here would read every file's terms after each edit
 * (`codectx index` after touching one stdlib file: 1.0 → 3.4 s of CPU). A large one is built
 * in a worker (`inWorker`, default: over {@link CACHE_MAX_ROWS} rows), or here when no
 * worker can run; an indexing run of a large generation starts it beside the columns.
 *
 * @example
 * ```ts
 * await project.reindex();
 * await writeLexicalFile(project);
 * ```
 */
export async function writeLexicalFile(
  project: Project,
  params: Bm25Params = DEFAULT_BM25,
  minRows: number = CACHE_MAX_ROWS,
  inWorker?: boolean,
  /** What the run that wrote these terms counted as it wrote them (see {@link lexicalRunHook}). */
  counted?: TermCounts,
): Promise<boolean> {
  const manifest = await project.store.readCurrent();
  if (!manifest) return false;
  const files = manifestFiles(manifest);
  const rows = files.reduce((n, f) => n + f.rows, 0);
  if (rows <= minRows) return false;
  const key = await buildKey(files, params);
  if (storedKey(project.store.dir) === key) return false;
  // A large index is built in a worker: its heap goes when it ends, and this thread is free
  // meanwhile (an indexing run writes the symbol and chunk columns beside it).
  if (inWorker ?? rows > CACHE_MAX_ROWS) {
    if (await buildInWorker(project.store.dir, files, params, key, counted)) return true;
    counted = undefined; // moved to the worker that failed
  }
  const held = project.loadedIndex?.memo.peek(LEXICAL);
  const cache = held && held.params === params ? held.terms : new Map<string, TermsLike>();
  const index = await buildFromTerms(project.store, files, params, cache, counted);
  store(project.store.dir, index, key);
  return true;
}

/**
 * A run that reads at least this many files counts the terms it writes (the first pass of
 * the lexical build, on this thread while the workers parse), so that `lexical.bin` after
 * its commit reads them back once, numbers only. About the files of {@link CACHE_MAX_ROWS}
 * rows (the Linux kernel: 60,556 files, 1.4 M rows); a smaller run does not pay for it.
 * A test may lower it.
 */
export const countDuringRun = { minFiles: 12_000 };

/**
 * What the search floor adds to a project's indexing runs (the service passes it to
 * `Project.open`): a large run counts the terms it writes, and after the commit `lexical.bin`
 * is built (from those counts when there are some), beside the symbol and chunk columns —
 * after every run of a large generation and a process's first run of any (`codectx index`).
 *
 * @example
 * ```ts
 * const project = await Project.open(root, { hooks: [lexicalRunHook()] });
 * await project.reindex(); // leaves lexical.bin when the generation is large
 * ```
 */
export function lexicalRunHook(): RunHook {
  /** The counts of the run in flight (or just committed), taken by the build after it. */
  let counts: TermCounts | undefined;
  return {
    gather(_project, filesToRead) {
      if (filesToRead < countDuringRun.minFiles) return null;
      let counter: TermCounter | null = new TermCounter();
      const decoder = new TextDecoder();
      counts = undefined;
      return {
        blob(hash, parts) {
          if (!counter) return;
          try {
            const bytes = parts.terms;
            if (!bytes) throw new Error("a blob without terms");
            counter.add(
              hash,
              isBinaryTerms(bytes) ? decodeTerms(bytes) : JSON.parse(decoder.decode(bytes)),
            );
          } catch {
            counter = null; // the build after the commit counts from the store instead
          }
        },
        // The counts made compact (the vocabulary map let go) before the builds after the commit.
        written() {
          counts = counter?.counts();
          counter = null;
        },
        end() {
          counter = null;
          counts = undefined;
        },
      };
    },
    afterCommit(project) {
      // What the run counted is spent here either way.
      const counted = counts;
      counts = undefined;
      // Any size: the project calls this after a large generation's runs and after a
      // process's first run of any size (see `Project.runOnce`).
      return writeLexicalFile(project, DEFAULT_BM25, 0, undefined, counted);
    },
  };
}

/** How many `lexical.bin` files workers of this process built (what a test asks). */
export const workerBuilds = { count: 0 };

/** What a build worker is asked (`lexical_worker.ts`). */
interface BuildJob {
  dir: string;
  files: TermsFile[];
  params: Bm25Params;
  key: string;
  counted?: TermCounts;
}

/** A worker's answer: built (and written), or why not. */
interface WorkerAnswer {
  ok: boolean;
  error?: string;
}

/**
 * Builds and writes `lexical.bin` in a worker (`lexical_worker.ts`); false when the worker
 * could not start or failed (the caller builds here then).
 */
async function buildInWorker(
  dir: string,
  files: TermsFile[],
  params: Bm25Params,
  key: string,
  counted?: TermCounts,
): Promise<boolean> {
  const pool = createPool<BuildJob, boolean>({
    name: "lexical build",
    member: { worker: new URL("./lexical_worker.ts", import.meta.url) },
    size: 1,
    restart: false,
    // One job, one answer (it names no job).
    protocol: { send: (_id, job) => job, read: (m) => ({ result: (m as WorkerAnswer).ok }) },
    // The counts move to the worker (this thread holds no copy).
    transfer: (job) =>
      job.counted
        ? [job.counted.vocab, job.counted.df, job.counted.names, ...job.counted.blocks].map((a) =>
          a.buffer as ArrayBuffer
        )
        : [],
  });
  try {
    const ok = await pool.run({ dir, files, params, key, counted });
    if (ok) workerBuilds.count++;
    return ok;
  } catch {
    return false;
  } finally {
    void pool.close();
  }
}

/**
 * The job of a build worker: the index of `files` from the store in `dir`, written there
 * under `key` (the store is opened and closed here).
 */
export async function buildLexicalFile(
  dir: string,
  files: TermsFile[],
  params: Bm25Params,
  key: string,
  counted?: TermCounts,
): Promise<void> {
  const s = await Store.open(dir);
  try {
    store(dir, await buildFromTerms(s, files, params, new Map(), counted), key);
  } finally {
    s.close();
  }
}

/** The stored index if it was built from `key`; null when absent, stale or unreadable. */
async function readStored(
  project: Project,
  key: string,
  params: Bm25Params,
): Promise<LexicalIndex | null> {
  if (storedKey(project.store.dir) !== key) return null;
  try {
    return decodeLexicalIndex(await readWhole(`${project.store.dir}/${LEXICAL_FILE}`), key, params);
  } catch {
    return null;
  }
}

/**
 * Writes the index beside the store (a temporary file renamed over the last one, so a
 * reader never sees half of it). Synchronous: a few milliseconds after a build that took
 * hundreds, and nothing left in flight when the project closes. Never throws: without the
 * file, the next start builds.
 */
function store(dir: string, index: LexicalIndex, key: string): void {
  const path = `${dir}/${LEXICAL_FILE}`;
  const tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    const file = Deno.openSync(tmp, { write: true, create: true, truncate: true });
    try {
      for (const part of index.encodeParts(key)) {
        for (let at = 0; at < part.length;) at += file.writeSync(part.subarray(at));
      }
    } finally {
      file.close();
    }
    Deno.renameSync(tmp, path);
  } catch {
    try {
      Deno.removeSync(tmp);
    } catch {
      // nothing was written
    }
  }
}

/**
 * Above this many rows the terms are not kept between generations: they are read from the
 * store one file at a time, twice (the Linux kernel: 1.4 M rows, several GB of terms as
 * objects); below it, a new generation reads only the files that changed.
 */
const CACHE_MAX_ROWS = 250_000;

async function build(
  project: Project,
  table: ChunkTable,
  params: Bm25Params,
  cache: Map<string, TermsLike>,
): Promise<LexicalIndex> {
  const files = tableFiles(table);
  const key = await buildKey(files, params);
  const stored = await readStored(project, key, params);
  if (stored) return stored;
  const index = await buildFromTerms(project.store, files, params, cache);
  store(project.store.dir, index, key);
  return index;
}

const jsonDecoder = new TextDecoder();

/**
 * A stored `terms` part: binary (`encodeTerms`, views of the bytes) or, written by a codectx
 * of an earlier format, JSON.
 */
function termsOf(bytes: Uint8Array, vocabulary = true): TermsLike {
  return isBinaryTerms(bytes)
    ? decodeTerms(bytes, vocabulary)
    : JSON.parse(jsonDecoder.decode(bytes));
}

/**
 * The index of `files` from the store's terms (kept in `cache` for a small index); with
 * `counted` (the first pass, made as a run wrote the terms) they are read once, not twice.
 */
async function buildFromTerms(
  kv: Store,
  files: TermsFile[],
  params: Bm25Params,
  cache: Map<string, TermsLike>,
  counted?: TermCounts,
): Promise<LexicalIndex> {
  const size = files.reduce((n, f) => n + f.rows, 0);
  const wanted = new Set(files.map((f) => f.key).filter((k) => k));
  if (size > CACHE_MAX_ROWS || counted) {
    cache.clear();
    const each = (visit: (key: string, terms: TermsLike) => void, vocabulary = true) =>
      kv.eachBlobBytes("terms", wanted, (k, bytes) => visit(k, termsOf(bytes, vocabulary)));
    return await buildLexicalIndexFrom({ files, each, counted }, size, params);
  }
  for (const k of [...cache.keys()]) if (!wanted.has(k)) cache.delete(k);
  const need = new Set([...wanted].filter((k) => !cache.has(k)));
  if (need.size > 64) {
    await kv.eachBlobBytes("terms", need, (k, bytes) => cache.set(k, termsOf(bytes)));
  } else {
    for (const k of need) {
      const bytes = await kv.readBlobBytes("terms", k);
      if (bytes) cache.set(k, termsOf(bytes));
    }
  }
  const each = (visit: (key: string, terms: TermsLike) => void) => {
    for (const k of wanted) {
      const t = cache.get(k);
      if (t) visit(k, t);
    }
  };
  return await buildLexicalIndexFrom({ files, each }, size, params);
}
