/**
 * A project's read model: its root, its store, the loaded index (one committed generation)
 * and the one indexing run in flight. What runs around it in a long-lived process (vectors,
 * the watcher, health) belongs to the service that opens it.
 *
 * @module
 */

import { CodectxError, errorCode } from "../errors.ts";
import { defaultIndexHome, indexDirFor } from "../store/home.ts";
import { type FileEntry, type Manifest, Store } from "../store/kv.ts";
import { type LoadedChunks, TextSpill } from "../store/texts.ts";
import type { ChunkRecord, SymbolRecord } from "../types.ts";
import type { IndexOptions, IndexProgress, IndexReport } from "../index/indexer.ts";
import { resolveInRoot, rootIdentity, rootMissingError } from "../index/paths.ts";
import {
  chunkCount,
  columnsKey,
  FileSymbols,
  LARGE_CHUNKS,
  loadChunkColumns,
  loadColumns,
  storedChunksKey,
  storedColumnsKey,
} from "../index/symbols_file.ts";
import type { ChunkColumns } from "../index/chunk_columns.ts";
import { releaseFreedMemory, tuneNativeHeap } from "../util/native_heap.ts";
import type { SymbolColumns } from "../index/symbol_columns.ts";
import { Memo, type Slot } from "../util/memo.ts";

/** What a generation's state is made from: the project and its loaded index. */
export interface Generation {
  readonly project: Project;
  readonly index: LoadedIndex;
}

/** A value a loaded generation holds (the code graph, the chunk table, the lexical index…). */
export type GenerationSlot<T> = Slot<Generation, T>;

/** A value an open project holds for as long as it is open (its vectors, its search workers). */
export type ProjectSlot<T> = Slot<Project, T>;

/**
 * How long a new generation may still look back at the previous one's values (to carry over
 * what did not change); longer than a tool call's limit, so a call on the old one can finish.
 */
const PREVIOUS_GENERATION_MS = 60_000;

/** The index as tools read it: one committed generation, in memory. */
export interface LoadedIndex {
  generation: number;
  /** Indexed files by path (skipped ones included, with `skipped` set). */
  files: Map<string, FileEntry>;
  /**
   * The symbols as columns (typed arrays and one string table): a symbol is its place in
   * {@link symbols}; `columns.record(i)` is that same record, made when asked for.
   */
  columns: SymbolColumns;
  /**
   * Every symbol, files in path order, symbols in source order. Made on first use (every
   * record at once: the Linux kernel's 3 M take seconds and GB) — a caller that looks up a
   * few names or files asks {@link columns} or {@link symbolsByFile} instead.
   */
  readonly symbols: SymbolRecord[];
  /** Symbols by indexed file (empty for a file without any), each file's made on first use. */
  symbolsByFile: ReadonlyMap<string, SymbolRecord[]>;
  /**
   * The symbols whose `field`, mapped by `key`, is `value`, in list order: the map of each
   * `keyName` (one `key` function per name) is built once, over the distinct values only.
   */
  symbolsBy(
    field: "name" | "qualifiedName" | "parent",
    keyName: string,
    key: (value: string) => string,
    value: string,
  ): SymbolRecord[];
  /**
   * Chunks are loaded on first use. Their texts are read back from a process-private file
   * when asked for (`store/texts.ts`), not held in memory.
   */
  chunks(): Promise<ChunkRecord[]>;
  /**
   * Everything built for this generation (graph, tables, indexes, views, summary): one value
   * per {@link GenerationSlot}, made on first use, gone with the generation.
   */
  readonly memo: Memo<Generation>;
}

/**
 * What an indexing run shows a gatherer: each blob it writes (key and encoded parts), that
 * its writes are done (committed, before the builds after the commit), then its end —
 * after those builds, or on failure (what was gathered is dropped).
 */
export interface RunGatherer {
  blob(hash: string, parts: Readonly<Record<string, Uint8Array>>): void;
  written(): void;
  end(): void;
}

/**
 * What another domain adds to this project's indexing runs without the index knowing it (the
 * search floor's `lexical.bin`): a gatherer that joins a run reading at least the files it
 * wants and is shown each blob as it is written, and a build that follows the commit of a
 * large generation (over `LARGE_CHUNKS` chunks), after its symbol and chunk columns. A
 * build's failure is its own (the next use builds again). The service passes them to
 * {@link Project.open}.
 */
export interface RunHook {
  gather?(project: Project, filesToRead: number): RunGatherer | null;
  afterCommit?(project: Project): Promise<unknown>;
  /**
   * What completes the index after the run (the vectors): awaited by the caller of
   * {@link Project.reindex} once the run is over (the loaded index can be read then), not
   * by callers that share a run in flight. Its failure is its own.
   */
  afterRun?(project: Project): Promise<unknown>;
}

/** Where a project's index lives and how it is built. */
export interface ProjectOptions {
  /** What other domains add to its indexing runs (see {@link RunHook}). */
  hooks?: readonly RunHook[];
  /** Index folder (default: one folder per root under the codectx home). */
  indexDir?: string;
  /** Parsing workers (default one per core). */
  workers?: number;
  /** Extra ignore patterns (gitignore syntax), on top of `.gitignore` and `.codectxignore`. */
  exclude?: string[];
  /** Memory an indexing run may use, in MiB (see `IndexOptions.maxMemoryMiB`). */
  maxMemoryMiB?: number;
}

/** State shown by health endpoints. */
export type IndexState = "empty" | "indexing" | "ready";

/** A listener of indexing progress and completion. */
export type ProjectListener = (
  e: { type: "progress"; progress: IndexProgress } | { type: "completed"; report: IndexReport },
) => void;

/** How long a call waits for another process's first index before answering `busy`. */
const FIRST_INDEX_WAIT_MS = 10_000;

/**
 * How long a read of the current generation answers `index()` and `state()`: each search
 * asked the store twice (~0.3 ms of CPU and a turn of the event loop each); another
 * process's commit is seen this much later at most, this process's own at once.
 */
const GENERATION_TTL_MS = 100;

/** An open project. */
export class Project {
  private loaded: LoadedIndex | null = null;
  /** The load of the current generation in flight (`index()` callers share it). */
  private loading: Promise<LoadedIndex> | null = null;
  private running: Promise<IndexReport> | null = null;
  /** The columns of the last loaded generation, and the blob of each of its files. */
  private columns: { columns: SymbolColumns; blobs: Map<string, string>; key: string } | null =
    null;
  /** The chunk columns of the last large generation loaded. */
  private chunkCols: { columns: ChunkColumns; key: string } | null = null;
  private chunkCache = new Map<string, LoadedChunks>();
  /** Where the loaded chunks' texts are (made on the first chunk load). */
  private spill: TextSpill | null = null;
  private listeners = new Set<ProjectListener>();
  private generationRead: { generation: number | null; at: number } | null = null;
  /**
   * What the project holds while it is open, across generations (its vectors, its search
   * workers): one value per {@link ProjectSlot}; `close()` lets them go.
   */
  readonly scope: Memo<Project> = new Memo<Project>(this);
  /** The report of the last run of this process. */
  lastReport: IndexReport | null = null;
  lastIndexedAt: string | null = null;
  /** Which folder the index was read from (`rootIdentity`): another one there is indexed again. */
  private rootId: string | null;

  private constructor(
    /** Real path of the root. */
    readonly root: string,
    readonly store: Store,
    private readonly opts: ProjectOptions,
  ) {
    this.rootId = rootIdentity(root);
  }

  /** Opens the project at `root`; fails with a clear message when it is not a directory. */
  static async open(root: string, opts: ProjectOptions = {}): Promise<Project> {
    let real: string;
    try {
      real = await Deno.realPath(root);
      if (!(await Deno.stat(real)).isDirectory) throw new Error("not a directory");
    } catch {
      throw new CodectxError(
        "invalid_argument",
        `project path '${root}' does not exist or is not a directory; pass --path <dir>`,
      );
    }
    const dir = opts.indexDir ?? (await indexDirFor(real, defaultIndexHome()));
    const store = await Store.open(dir);
    return new Project(real, store, opts);
  }

  /** The generation loaded last, if any (nothing is read: see {@link index}). */
  get loadedIndex(): LoadedIndex | null {
    return this.loaded;
  }

  /** The project's folder name. */
  get name(): string {
    return this.root.split("/").filter(Boolean).pop() ?? this.root;
  }

  /** Whether the root folder is gone (deleted, moved away): every read fails until it is back. */
  get rootMissing(): boolean {
    return rootIdentity(this.root) === null;
  }

  /**
   * The folders an indexing run lists, by their real paths, the root first: what a watcher
   * watches (a symlink out of the root, a skipped or ignored folder is not among them).
   */
  async directories(): Promise<string[]> {
    const dirs: string[] = [];
    const { walk } = await import("../index/walker.ts");
    await walk(this.root, {
      extraIgnores: this.opts.exclude,
      accept: () => false,
      onDir: (_rel, real) => dirs.push(real),
    });
    return dirs;
  }

  /** Whether an indexing run of this process is in flight. */
  get indexing(): boolean {
    return this.running !== null;
  }

  /** `empty` before any index, `indexing` while a run is in flight, else `ready`. */
  async state(): Promise<IndexState> {
    if (this.running) return "indexing";
    return (await this.currentGeneration()) === null ? "empty" : "ready";
  }

  /** Listens to indexing events; returns the function that stops listening. */
  listen(fn: ProjectListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * Runs indexing (one run at a time; a second caller shares the run in flight). Another
   * process writing the same index is `busy`; a failed run (a full disk) removes what it
   * wrote and leaves the last complete index as it was.
   */
  reindex(opts: Omit<IndexOptions, "onProgress" | "workers"> = {}): Promise<IndexReport> {
    if (this.running) return this.running;
    const rootId = rootIdentity(this.root);
    if (rootId === null) return Promise.reject(this.rootGone());
    const complete = this.runs++ === 0;
    const run = this.runOnce(opts, complete).then((report) => {
      this.rootId = rootId;
      this.generationRead = null;
      this.lastReport = report;
      this.lastIndexedAt = new Date().toISOString();
      this.emit({ type: "completed", report });
      return report;
    }).finally(() => {
      this.generationRead = null;
      this.running = null;
    });
    this.running = run;
    const hooks = (this.opts.hooks ?? []).filter((h) => h.afterRun);
    if (!hooks.length) return run;
    return run.then(async (report) => {
      for (const hook of hooks) await hook.afterRun!(this).catch(() => {});
      return report;
    });
  }

  /** Runs started by this process (the first leaves every file a query reads). */
  private runs = 0;

  /**
   * One run: index, commit, then what queries read beside the store. A large generation's
   * symbol and chunk columns and the hooks' builds (`lexical.bin`) are made by every run; a
   * small one's by the `complete` run (a process's first: `codectx index`, a command's
   * update, a server's start), so that a fresh process opens them instead of building them —
   * a server's later runs (a watcher's, one file each) leave them to the next process that
   * finds them stale (the lexical build alone cost a one-file re-index 1.0 → 3.4 s of CPU).
   */
  private async runOnce(
    opts: Omit<IndexOptions, "onProgress" | "workers">,
    complete: boolean,
  ): Promise<IndexReport> {
    await this.refuseIfOtherWriter();
    const gathering: RunGatherer[] = [];
    let unwatch = () => {};
    /** Starts the gatherers once the run knows how many files it reads. */
    const gather = (progress: IndexProgress) => {
      if (progress.phase !== "parse" || progress.filesDone !== 0 || gathering.length) return;
      for (const hook of this.opts.hooks ?? []) {
        const g = hook.gather?.(this, progress.filesTotal);
        if (g) gathering.push(g);
      }
      if (!gathering.length) return;
      unwatch = this.store.watchBlobs((hash, parts) => {
        for (const g of gathering) g.blob(hash, parts);
      });
    };
    try {
      // The indexer (and the parser it runs) is loaded by the first run: a command that
      // answers from the index as it is never loads it (issue 34).
      const { runIndex } = await import("../index/indexer.ts");
      const report = await runIndex(this.root, this.store, {
        ...opts,
        workers: this.opts.workers,
        exclude: this.opts.exclude,
        maxMemoryMiB: this.opts.maxMemoryMiB,
        onProgress: (progress) => {
          gather(progress);
          this.emit({ type: "progress", progress });
        },
      });
      unwatch();
      for (const g of gathering) g.written();
      // What the gatherers let go (a vocabulary map of millions of terms) goes before the builds.
      if (gathering.length) releaseFreedMemory();
      // The symbol and chunk columns are written now, not by the first query of the next
      // process (see above for which runs).
      const manifest = await this.store.readCurrent();
      const large = manifest !== null && chunkCount(manifest) > LARGE_CHUNKS;
      if (manifest && (large || complete)) {
        // Large blocks the builds free go back to the system at once (not kept by malloc).
        if (large) tuneNativeHeap();
        const key = await columnsKey(manifest);
        // A large generation's are not kept: what runs next (the lexical build) needs the
        // memory, and a load reads the files back in about a second. A small one's are kept
        // (read back from the file) for this process's queries.
        if (storedColumnsKey(this.store.dir) !== key) {
          const built = await this.symbolColumns(manifest, !large);
          if (large && built !== this.loaded?.columns) {
            built.close();
            this.columns = null;
          }
          if (large) releaseFreedMemory();
        }
        if (storedChunksKey(this.store.dir) !== key) {
          // Written, not read back (not kept either): a fresh process's first search reads
          // its chunks from the file instead of parsing every chunk blob (issue 34).
          await loadChunkColumns(this.store, manifest, key, false);
          releaseFreedMemory();
        }
        // The other builds (the lexical index, in a worker) come last, one at a time: beside
        // the chunk columns, the lexical worker's arrays and the chunk columns' end made the
        // Linux kernel's peak 2,371 MiB (2 GiB budget); after them it costs ~20 s of wall.
        for (const hook of this.opts.hooks ?? []) await hook.afterCommit?.(this).catch(() => {});
      }
      return report;
    } catch (err) {
      // Lost the race for the lease: the other writer's blobs are not ours to remove.
      await this.refuseIfOtherWriter();
      if (await this.store.acquireLease().catch(() => false)) {
        try {
          await this.store.discardUncommitted();
        } finally {
          await this.store.releaseLease().catch(() => {});
        }
      }
      // The root went away during the run: say so, not the walk's realpath error.
      throw this.rootMissing ? this.rootGone() : err;
    } finally {
      unwatch();
      for (const g of gathering) g.end();
    }
  }

  /** Fails with `busy` while another live process holds the writer lease. */
  private async refuseIfOtherWriter(): Promise<void> {
    const holder = await this.store.leaseHolder();
    if (holder === null || holder === Deno.pid) return;
    throw new CodectxError(
      "busy",
      `another codectx process (pid ${holder}) is indexing this project; retry when it is done ` +
        `(its index is answered as soon as it commits)`,
    );
  }

  /** Waits for a run in flight, if any. */
  async settled(): Promise<void> {
    if (this.running) await this.running.catch(() => {});
  }

  /**
   * The current index, building it first when there is none; waits for a run in flight.
   * Fails with `not_found` naming the root when the root is gone; indexes first when another
   * folder now stands at the root's path.
   */
  async index(): Promise<LoadedIndex> {
    if (this.running) await this.running.catch(() => {});
    const rootId = rootIdentity(this.root);
    if (rootId === null) throw this.rootGone();
    if (rootId !== this.rootId) {
      // Another folder at the root's path (deleted and made again, swapped): its index, not the old one's.
      await this.reindex().catch((err) => {
        if (errorCode(err) !== "busy") throw err;
      });
    }
    let gen = await this.currentGeneration();
    if (gen === null) {
      try {
        await this.reindex();
      } catch (err) {
        // Another process builds the first index: wait for its commit, a while.
        if (errorCode(err) !== "busy" || !(await this.waitForCommit(FIRST_INDEX_WAIT_MS))) {
          throw err;
        }
      }
      gen = await this.currentGeneration(0);
      if (gen === null) {
        throw new CodectxError(
          "internal",
          "indexing produced no index; run `codectx index` to see why",
        );
      }
    }
    if (this.loaded?.generation === gen) return this.loaded;
    // Callers that ask while a load runs share it, so they hold the same records: the
    // resolver's answers and the code graph key on a record's identity (two loads of one
    // generation at once gave get_context a target its graph did not know).
    const shared = await this.sharedLoad();
    return shared.generation === gen ? shared : await this.sharedLoad();
  }

  /** The load in flight, or a new one; the loaded index is kept when it ends. */
  private sharedLoad(): Promise<LoadedIndex> {
    this.loading ??= this.load()
      .then((loaded) => (this.loaded = loaded))
      .finally(() => (this.loading = null));
    return this.loading;
  }

  /**
   * The store's current generation, from a read at most `maxAgeMs` old (0: read now). A
   * read is forgotten after each run of this process; "no index yet" is never kept.
   */
  async currentGeneration(maxAgeMs = GENERATION_TTL_MS): Promise<number | null> {
    const hit = this.generationRead;
    const now = performance.now();
    if (hit && hit.generation !== null && now - hit.at < maxAgeMs) {
      return hit.generation;
    }
    const generation = await this.store.currentGeneration();
    this.generationRead = { generation, at: now };
    return generation;
  }

  /** Polls for a committed generation for up to `ms`; whether one appeared. */
  private async waitForCommit(ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if ((await this.store.currentGeneration()) !== null) return true;
      await new Promise((r) => setTimeout(r, 200));
    }
    return false;
  }

  /** The error of a read while the root is gone; whatever folder comes back is indexed again. */
  private rootGone(): CodectxError {
    this.rootId = null;
    return rootMissingError(this.root);
  }

  /** Resolves a user-given path inside the root (see `resolveInRoot`). */
  resolvePath(input: string, field = "file_path"): string {
    return resolveInRoot(this.root, input, field);
  }

  /** Lets go of what the project holds, then closes the store (and the files of texts and symbols). */
  close(): void {
    this.scope.dispose();
    this.loaded?.memo.dispose();
    this.store.close();
    this.spill?.close();
    this.columns?.columns.close();
    this.columns = null;
    this.chunkCols?.columns.close();
    this.chunkCols = null;
  }

  /** The chunk columns of a large generation: kept, read from the file, or built (null: not written). */
  private async chunkColumns(manifest: Manifest): Promise<ChunkColumns | null> {
    const key = await columnsKey(manifest);
    const prev = this.chunkCols;
    if (prev?.key === key) return prev.columns;
    const columns = await loadChunkColumns(this.store, manifest, key);
    if (!columns) return null;
    this.chunkCols = { columns, key };
    if (prev) Deno.unrefTimer(setTimeout(() => prev.columns.close(), 60_000));
    return columns;
  }

  /**
   * The symbol columns of `manifest`'s generation: kept, read from the file, or built (and
   * read back from the file it was written to, unless `readBack` is false).
   */
  private async symbolColumns(manifest: Manifest, readBack = true): Promise<SymbolColumns> {
    const key = await columnsKey(manifest);
    const prev = this.columns;
    if (prev?.key === key) return prev.columns;
    const columns = await loadColumns(this.store, manifest, key, prev, readBack);
    const blobs = new Map<string, string>();
    for (const f of manifest.files) if (!f.skipped) blobs.set(f.path, f.blob);
    this.columns = { columns, blobs, key };
    if (prev) {
      // A query on the previous generation may still make records from its file a while.
      Deno.unrefTimer(setTimeout(() => prev.columns.close(), 60_000));
    }
    return columns;
  }

  private emit(e: Parameters<ProjectListener>[0]): void {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch {
        // a listener's failure is not the indexer's
      }
    }
  }

  private async load(): Promise<LoadedIndex> {
    const manifest = await this.store.readCurrent();
    if (!manifest) {
      throw new CodectxError(
        "internal",
        "the index could not be read; run `codectx index --force`",
      );
    }
    const keys = new Map<string, string>();
    for (const f of manifest.files) {
      if (!f.skipped) keys.set(f.path, f.blob);
    }
    const wanted = new Set(keys.values());
    const columns = await this.symbolColumns(manifest);
    const key = this.columns!.key;
    let all: SymbolRecord[] | null = null;
    let chunksPromise: Promise<ChunkRecord[]> | null = null;
    const store = this.store;
    const chunkCache = this.chunkCache;
    const spill = () => this.spill ??= TextSpill.create();
    const chunkColumns = (m: Manifest) => this.chunkColumns(m);
    const nothingLoaded = () => this.chunkCols === null && chunkCache.size === 0;
    // The new generation may carry over the last one's values for a while; the one before
    // that is let go.
    const previous = this.loaded?.memo ?? null;
    previous?.forgetPrevious();
    let memo: Memo<Generation> | null = null;
    const newMemo = (index: LoadedIndex) =>
      new Memo<Generation>({ project: this, index }, previous);
    const loaded: LoadedIndex = {
      get memo() {
        if (!memo) {
          memo = newMemo(loaded);
          const m = memo;
          Deno.unrefTimer(setTimeout(() => m.forgetPrevious(), PREVIOUS_GENERATION_MS));
        }
        return memo;
      },
      generation: manifest.generation,
      files: new Map(manifest.files.map((f) => [f.path, f])),
      columns,
      get symbols() {
        return all ??= columns.allRecords();
      },
      symbolsByFile: new FileSymbols(columns),
      symbolsBy: (field, keyName, key, value) =>
        columns.lookup(field, key, keyName, value).map((i) => columns.record(i)),
      chunks() {
        chunksPromise ??= (async () => {
          // Read from chunks.bin (one small record per chunk, texts left in the file): a large
          // generation's always; a small one's when the file is this generation's (a first
          // run wrote it) or nothing is loaded yet (the file is written for the next process);
          // a server's later small generations carry their blobs' chunks over instead.
          if (
            chunkCount(manifest) > LARGE_CHUNKS || storedChunksKey(store.dir) === key ||
            nothingLoaded()
          ) {
            const cols = await chunkColumns(manifest);
            if (cols) return cols.records();
          }
          const texts = spill();
          const need = new Set([...wanted].filter((k) => !chunkCache.has(k)));
          // Each blob's texts go to the file as it is read: the texts of all files are
          // never in memory at once.
          await fill<ChunkRecord[]>(store, "chunks", need, (k, v) => {
            chunkCache.set(k, texts.take(v));
          });
          for (const [k, v] of [...chunkCache]) {
            if (wanted.has(k)) continue;
            texts.release(v);
            chunkCache.delete(k);
          }
          texts.compact(chunkCache.values());
          const out: ChunkRecord[] = [];
          for (const key of keys.values()) {
            for (const c of chunkCache.get(key)?.chunks ?? []) out.push(c);
          }
          return out;
        })();
        return chunksPromise;
      },
    };
    return loaded;
  }
}

/** Loads blobs of one kind, each handed to `put`: one pass over the store when many are needed. */
async function fill<T>(
  store: Store,
  kind: string,
  need: Set<string>,
  put: (key: string, value: T) => void,
): Promise<void> {
  if (need.size === 0) return;
  if (need.size > 64) {
    await store.eachBlob<T>(kind, need, put);
    return;
  }
  for (const k of need) {
    const v = await store.readBlob<T>(kind, k);
    if (v) put(k, v);
  }
}
