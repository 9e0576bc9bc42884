/**
 * Background embedding: after a commit, the chunks of the new generation get vectors while
 * lexical search already answers. Vectors come, in order of cost, from the previous
 * generation in memory (same file blob), from the store (blocks written by any earlier
 * run), from the store by chunk text hash (a changed file's unchanged chunks), and only
 * then from the model, in a worker. Each file's block is written as soon as it is complete,
 * so a killed process loses at most the files in flight.
 *
 * @module
 */

import type { IndexProgress } from "../index/indexer.ts";
import type { Project } from "../project/project.ts";
import { slot } from "../util/memo.ts";
import { errorMessage } from "../errors.ts";
import type { Embedder, ResolvedEmbedder } from "./embedder.ts";
import { inProcessEmbedder, resolveEmbedder } from "./providers.ts";
import { type ChunkTable, chunkTable } from "./table.ts";
import { collectVectorGarbage, deleteBlocks, textHash } from "./vector_store.ts";
import { FlatVectorIndex } from "./vectors.ts";
import { workerEmbedder } from "./worker_embedder.ts";
import {
  chunkDocument,
  type Current,
  type GenerationVectors,
  keepPrevious,
  readStored,
  type Run,
  writeFile,
} from "./vector_fill.ts";
import { releaseFreedMemory } from "../util/native_heap.ts";
import { searchWorkers } from "./search_pool.ts";
import {
  manifestTableFiles,
  readVectorsFile,
  storedVectorsHead,
  vectorsKey,
  writeVectorsFile,
} from "./vector_file.ts";

export { chunkDocument, type GenerationVectors } from "./vector_fill.ts";

/** Chunks embedded by a run past which its end gives freed memory back (a watcher's one-file runs do not). */
const RELEASE_AFTER_EMBEDDED = 2_000;

export type { VectorOptions, VectorProgress } from "./options.ts";
import { VECTOR_CHOICE, type VectorOptions, type VectorProgress } from "./options.ts";

/** Texts sent to the worker at once. */
const BATCH = 64;

/** A project's embedding, made by the first who asks (a server, with its embedder). */
const VECTORS = slot<Project, VectorSync>(
  "vectors",
  (p) => new VectorSync(p, Deno.env.get("CODECTX_EMBEDDER") ?? "auto", () => {}),
  (sync) => sync.close(),
);

/**
 * The background embedding of `project`: one per open project, created on first use with
 * the options the service that opened the project chose ({@link VECTOR_CHOICE}), else `opts`
 * (later `opts` are ignored).
 *
 * @example
 * ```ts
 * const progress = await projectVectors(project).settle();
 * console.log(progress.done, progress.total);
 * ```
 */
export function projectVectors(project: Project, opts: VectorOptions = {}): VectorSync {
  return project.scope.get(VECTORS, (p) => {
    const o = p.scope.peek(VECTOR_CHOICE) ?? opts;
    return new VectorSync(
      p,
      o.embedder ?? Deno.env.get("CODECTX_EMBEDDER") ?? "auto",
      o.onProgress ?? (() => {}),
    );
  });
}

/** The background embedding of one project. */
export class VectorSync {
  private current: Current | null = null;
  /**
   * Passes that rebuilt the in-memory vectors (a new generation or embedder). Searches over
   * an unchanged, complete set add none.
   */
  rebuilds = 0;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  /**
   * The last pass failed (the embedder could not load: a package that could not be fetched,
   * a model folder gone): searches do not start it again — each would fail the same way and
   * hide the error behind "embedding" — until a new generation is committed.
   */
  private failed = false;
  /** The model embedding documents: a worker's (closed after a run) or the shared one. */
  private worker: Embedder | null = null;
  private ownsWorker = false;
  private status: VectorProgress;
  private stopListening: () => void;
  private lastEmit = 0;
  /**
   * Whether this pass has asked the model for vectors: `embed` progress events are sent only
   * then (loading stored vectors is not computing them; `codectx search` says "computing
   * vectors" on the first such event).
   */
  private computing = false;
  /** The embedder `spec` resolves to (once per generation: it stats the model's files). */
  private resolved: Promise<ResolvedEmbedder | null> | null = null;

  constructor(
    private readonly project: Project,
    /** The `--embedder` choice. */
    readonly spec: string,
    private readonly emit: (p: IndexProgress) => void,
  ) {
    this.status = {
      embedder: spec,
      dimensions: 0,
      done: 0,
      total: 0,
      embedded: 0,
      state: spec === "none" ? "off" : "idle",
    };
    this.stopListening = project.listen((e) => {
      if (e.type === "completed" && e.report.generation !== this.current?.generation) {
        this.restart();
      }
    });
  }

  /** Where the vectors are. */
  progress(): VectorProgress {
    return { ...this.status };
  }

  /**
   * Starts the background run unless one is in flight. A run over a complete, unchanged
   * set of vectors ends at once (one store read), so callers may call this per query.
   */
  start(): void {
    if (this.closed || this.spec === "none" || this.running || this.failed) return;
    this.running = this.loop().finally(() => {
      this.running = null;
    });
  }

  /** A newer generation was committed: stop the run in flight at its next batch and redo. */
  private restart(): void {
    this.resolved = null;
    this.failed = false;
    if (this.running) this.again = true;
    else this.start();
  }

  /**
   * The vectors of `table`'s generation from `vectors.bin` when they are neither in memory
   * nor being made (one read per section; the stdlib's in ~20 ms): a fresh process's first
   * search is hybrid at once, not lexical while a pass loads them.
   */
  async openStored(table: ChunkTable): Promise<void> {
    if (this.closed || this.spec === "none" || this.failed) return;
    if (this.current?.generation === table.generation) return;
    this.resolved ??= resolveEmbedder(this.spec);
    const choice = await this.resolved.catch(() => null);
    if (!choice) return;
    // A pass in flight over vectors the file holds (the one an update run's end starts) only
    // loads them: waited for, the search is hybrid, not lexical alone.
    const running = this.running;
    if (!running) await this.loadStored(choice, table);
    else if (
      storedVectorsHead(this.project.store.dir)?.key === await vectorsKey(choice.id, table.files)
    ) {
      await running;
    }
  }

  /** Reads `table`'s complete vectors from the file into memory; whether they were there. */
  private async loadStored(choice: ResolvedEmbedder, table: ChunkTable): Promise<boolean> {
    const rows = table.chunks.length;
    // A server's search workers scan the sealed vectors too, each in a slot of its own.
    const workers = searchWorkers(this.project)?.size ?? 0;
    const key = await vectorsKey(choice.id, table.files);
    const stored = readVectorsFile(this.project.store.dir, key, choice.id, 1 + workers);
    if (!stored || stored.index.rows !== rows || stored.index.count !== rows) return false;
    this.current = {
      generation: table.generation,
      choice,
      table,
      index: stored.index,
      // Decoded when a later generation reuses rows (not spread: that would decode them now).
      get hashes() {
        return stored.hashes;
      },
    };
    this.status = {
      embedder: choice.id,
      dimensions: stored.index.dimensions,
      done: rows,
      total: rows,
      embedded: 0,
      state: "complete",
    };
    return true;
  }

  /**
   * What an indexing run leaves besides the index (`RunHook.afterRun`): the current
   * generation's vectors made and written (`vectors.bin`), unless the file holds them
   * already — read from its head and the manifest, nothing loaded, so a command's update run
   * that changed nothing costs no chunk table.
   */
  async fill(): Promise<VectorProgress> {
    if (this.spec === "none" || this.closed) return this.progress();
    const manifest = await this.project.store.readCurrent();
    this.resolved ??= resolveEmbedder(this.spec);
    const choice = await this.resolved.catch(() => null);
    if (!manifest || !choice) return this.progress();
    const head = storedVectorsHead(this.project.store.dir);
    const key = await vectorsKey(choice.id, manifestTableFiles(manifest));
    if (head?.key === key && head.embedder === choice.id) return this.progress();
    return await this.settle();
  }

  /** Starts the run if needed and waits until the vectors are complete (or failed). */
  async settle(): Promise<VectorProgress> {
    this.start();
    while (this.running) await this.running;
    return this.progress();
  }

  /** The vectors of `table`'s generation (possibly still filling), or null. */
  vectorsFor(table: ChunkTable): GenerationVectors | null {
    const c = this.current;
    return c && c.generation === table.generation ? c : null;
  }

  /** Stops the run and the worker. */
  close(): void {
    this.closed = true;
    this.stopListening();
    this.dropWorker();
  }

  private async useWorker(choice: ResolvedEmbedder): Promise<Embedder> {
    if (this.worker) return this.worker;
    const inWorker = choice.provider.inWorker !== false;
    this.worker = inWorker ? await workerEmbedder(choice) : await inProcessEmbedder(choice);
    this.ownsWorker = inWorker;
    return this.worker;
  }

  private dropWorker(): void {
    if (this.ownsWorker) this.worker?.close?.();
    this.worker = null;
    this.ownsWorker = false;
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.runOnce();
      } catch (err) {
        if (this.closed) return;
        this.status = { ...this.status, state: "error", error: errorMessage(err) };
        this.failed = true;
      } finally {
        this.dropWorker();
      }
    } while (this.again && !this.closed);
  }

  private report(force = false): void {
    if (!this.computing) return;
    const now = performance.now();
    if (!force && now - this.lastEmit < 500) return;
    this.lastEmit = now;
    this.emit({ phase: "embed", filesDone: this.status.done, filesTotal: this.status.total });
  }

  /**
   * One pass over the current generation, in stages: plan (skip when nothing changed) →
   * vectors kept from the previous generation → blocks in the store → embed the rest →
   * complete and collect garbage.
   */
  private async runOnce(): Promise<void> {
    this.computing = false;
    const run = await this.plan();
    if (!run) return;
    this.rebuilds++;
    keepPrevious(run);
    await readStored(run, () => this.closed);
    this.status.done = run.index.count;
    this.report(true);
    if (!(await this.embedMissing(run))) return;
    this.dropWorker();
    await this.complete(run);
  }

  /**
   * What this pass works on, or null when there is nothing to do: no index yet, embedder
   * `none`, or the vectors of the current generation are already complete.
   */
  private async plan(): Promise<Run | null> {
    const store = this.project.store;
    // Searches call `start` per query: the project's recent read (≤ 100 ms old; forgotten
    // after this process's own runs) spares a store read per query.
    const generation = await this.project.currentGeneration();
    if (generation === null) return null;
    this.resolved ??= resolveEmbedder(this.spec);
    const choice = await this.resolved.catch((err) => {
      this.resolved = null;
      throw err;
    });
    if (!choice) {
      this.status = { ...this.status, state: "off" };
      return null;
    }
    const prev = this.current?.choice.id === choice.id ? this.current : null;
    if (prev?.generation === generation && this.status.state === "complete") return null;
    const table = await chunkTable(this.project);
    const rows = table.chunks.length;
    // A server's search workers scan the sealed vectors too, each in a slot of its own.
    const workers = searchWorkers(this.project)?.size ?? 0;
    // The generation's complete vectors as the run that made them left them: no pass.
    if (await this.loadStored(choice, table)) return null;
    this.status = {
      embedder: choice.id,
      dimensions: prev?.index.dimensions ?? 0,
      done: 0,
      total: rows,
      embedded: 0,
      state: "embedding",
    };
    this.report(true);
    const dims = await this.dimensions(choice, prev);
    const index = new FlatVectorIndex(rows, dims, "int8", true, 1 + workers);
    const hashes = new Array<string>(rows).fill("");
    this.current = { generation: table.generation, choice, index, table, hashes };
    this.status.dimensions = dims;
    return {
      store,
      choice,
      table,
      prev,
      dims,
      index,
      hashes,
      missing: new Set(),
      reuse: new Map(),
      prevRows: new Map(),
      scannedAll: false,
      strayBlocks: 0,
    };
  }

  /** The embedder's dimensions: known from the last generation or the store, else asked. */
  private async dimensions(choice: ResolvedEmbedder, prev: Current | null): Promise<number> {
    const store = this.project.store;
    const meta = await store.kv.get<{ dims: number }>(["vecmeta", choice.id]);
    let dims = prev?.index.dimensions ?? meta.value?.dims ?? 0;
    if (dims === 0) {
      dims = (await this.useWorker(choice)).dimensions;
      await store.kv.set(["vecmeta", choice.id], { dims });
    }
    return dims;
  }

  /**
   * The rest: reuse by text hash, embed what is new in batches, write each file's block as
   * soon as it is complete. Files are taken one by one and a batch is embedded as soon as
   * it is full, so only a batch of texts is held at a time (not every missing chunk's).
   * False when the pass was stopped (closed or superseded).
   */
  private async embedMissing(run: Run): Promise<boolean> {
    const { choice, table, dims, index, hashes, missing, reuse, prevRows, prev } = run;
    const provider = choice.provider;
    const left = new Map<number, number>();
    let batch: Array<{ row: number; text: string }> = [];
    const embedBatch = async (): Promise<boolean> => {
      if (this.closed || this.again) return false;
      const model = await this.useWorker(choice);
      if (model.dimensions !== dims) {
        throw new Error(
          `embedder ${choice.id} now has ${model.dimensions} dimensions, the stored vectors ${dims}; run \`codectx index --force\``,
        );
      }
      const todo = batch;
      batch = [];
      if (!this.computing) {
        this.computing = true;
        this.report(true);
      }
      const vecs = await model.embed(todo.map((b) => b.text));
      const done = new Set<number>();
      todo.forEach((b, j) => {
        index.set(b.row, vecs[j]);
        const fi = table.fileOfRow[b.row];
        const n = left.get(fi)! - 1;
        left.set(fi, n);
        if (n === 0) done.add(fi);
      });
      for (const fi of done) await writeFile(run, fi);
      this.status.done = index.count;
      this.status.embedded += todo.length;
      this.report();
      return true;
    };
    for (const fi of missing) {
      const f = table.files[fi];
      let n = 0;
      for (let r = f.start; r < f.end; r++) {
        if (index.present[r] && hashes[r]) continue;
        const text = provider.documentText(chunkDocument(table, r));
        const h = textHash(text);
        hashes[r] = h;
        const at = prevRows.get(h);
        const v = reuse.get(h) ?? (at !== undefined ? prev?.index.get(at) : null);
        if (v) index.set(r, v);
        else {
          batch.push({ row: r, text });
          n++;
        }
      }
      if (n === 0) await writeFile(run, fi);
      else left.set(fi, n);
      // Between files, so that a file's count is set before its rows are embedded.
      if (batch.length >= BATCH && !(await embedBatch())) return false;
    }
    if (batch.length && !(await embedBatch())) return false;
    this.status.done = index.count;
    this.report(true);
    return true;
  }

  /**
   * Seals the vectors for the fast scan (sign codes, see `FlatVectorIndex.seal`), then marks
   * the generation complete (so the first searches after "complete" find them sealed), and
   * drops blocks no generation uses, if still current. A first pass that embedded nothing
   * and read every stored block without finding one of another file skips that scan of
   * the whole store (a server restarted on an unchanged index).
   */
  private async complete(run: Run): Promise<void> {
    const { store, choice, table, prev, index } = run;
    const current = (await store.currentGeneration()) === table.generation && !this.closed;
    // Sealed and written as search reads them, for the next process (`vector_file.ts`).
    if (current && (await index.seal())) {
      writeVectorsFile(
        store.dir,
        await vectorsKey(choice.id, table.files),
        choice.id,
        index,
        run.hashes,
      );
    }
    this.status = { ...this.status, done: index.count, state: "complete" };
    this.report(true);
    if (!current || this.closed) return;
    const keep = new Set(table.files.map((f) => f.blob));
    if (prev) {
      await deleteBlocks(
        store,
        choice.id,
        prev.table.files.map((f) => f.blob).filter((b) => !keep.has(b)),
      );
    } else if (this.status.embedded > 0 || !run.scannedAll || run.strayBlocks > 0) {
      await collectVectorGarbage(store, choice.id, keep);
    }
    // Indexing and embedding a whole tree leave their garbage in the heaps (a stdlib server
    // that indexed and embedded held 400–475 MiB before its first search; one started on the
    // stored index 365–378): it goes back now, not at the first quiet moment after requests.
    if (this.status.embedded >= RELEASE_AFTER_EMBEDDED) releaseFreedMemory();
  }
}
