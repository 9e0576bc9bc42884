/**
 * The project service: what a process that serves one project runs besides tool calls.
 * It opens the project (the read model tools query), runs indexing, fills vectors behind
 * lexical search, watches the tree, and tells surfaces how far all that is (`health()`,
 * `subscribe()`). The executor owns one; surfaces reach it as `executor.service`.
 *
 * @example
 * ```ts
 * const service = await ProjectService.open("./my-repo");
 * const stop = service.subscribe((e) => console.error(e.type));
 * await service.start({ watch: false });
 * console.log((await service.health()).files);
 * stop();
 * await service.close();
 * ```
 *
 * @module
 */

import { errorMessage } from "../errors.ts";
import type { IndexProgress, IndexReport } from "../index/indexer.ts";
import {
  Project,
  type ProjectListener,
  type ProjectOptions,
  type RunHook,
} from "../project/project.ts";
import type { ProjectWatcher, WatchStatus } from "./watch.ts";
import type { VectorProgress, VectorSync } from "../search/vector_sync.ts";
import { VECTOR_CHOICE } from "../search/options.ts";
import { lexicalRunHook } from "../search/lexical_cache.ts";
import { graphPartsRunHook } from "../graph/parts_file.ts";
import { holdScanWorker } from "../search/grep_pool.ts";
import { holdToolPool } from "../analysis/pool.ts";
import { defaultIndexHome } from "../store/home.ts";
import type { IndexStatus } from "./health.ts";
import { Admission, type AdmitOptions } from "./admission.ts";

/** How a project is opened and its vectors made. */
export interface ServiceOptions extends ProjectOptions {
  /**
   * Embedder of the vectors: `auto` (default, or `$CODECTX_EMBEDDER`), `codectx-code`,
   * `transformers:<model-id-or-folder>`, `use-lite`, `none`.
   */
  embedder?: string;
}

export type { IndexProgress };

/** An indexing event: progress of a phase (`walk`, `parse`, `write`, `embed`…) or a commit. */
export type ServiceEvent = Parameters<ProjectListener>[0];

/** Options of {@linkcode ProjectService.start}. */
export interface StartOptions {
  /** Re-index after changes to the tree (default true). */
  watch?: boolean;
  /** Where log lines go (default stderr). */
  log?: (line: string) => void;
}

/** What surfaces may ask of the service: no tool, no index internals. */
export interface Service {
  /** Real path of the project root. */
  readonly root: string;
  /** Index state, counts and vector progress, as health endpoints show them. */
  health(): Promise<IndexStatus>;
  /**
   * The committed generation, null before the first index: a store read, nothing started
   * (asking {@link health} starts the background embedding).
   */
  generation(): Promise<number | null>;
  /** Listens to indexing and embedding events; returns the function that stops listening. */
  subscribe(fn: (e: ServiceEvent) => void): () => void;
  /**
   * Builds the index in the background, then the vectors, and watches the tree. Resolves
   * after the first indexing run, successful or not.
   */
  start(opts?: StartOptions): Promise<void>;
  /** Waits until the vectors of the current index are complete (or failed, or off). */
  vectorsReady(): Promise<VectorProgress>;
  /**
   * Runs a tool call when one of a few places is free (see `admission.ts`), so that the
   * event loop stays free for `/health` and the next request while many clients call.
   */
  admit<T>(call: () => Promise<T>, opts?: AdmitOptions): Promise<T>;
  /** Stops watching, lets a run in flight end (bounded), closes the store. */
  close(): Promise<void>;
}

/** One line for a finished indexing run. */
export function reportLine(r: IndexReport): string {
  return `indexed ${r.files} files, ${r.chunks} chunks, ${r.symbols} symbols in ${
    (r.elapsedMs / 1000).toFixed(2)
  } s (${r.changed} changed)`;
}

/** The service of one open project. */
export class ProjectService implements Service {
  private readonly listeners = new Set<(e: ServiceEvent) => void>();
  private watcher: ProjectWatcher | null = null;
  /** Why nothing is watched while no watcher runs. */
  private notWatching = "not started yet: the tree is watched once the server starts";
  private started: Promise<void> | null = null;
  private closing: Promise<void> | null = null;
  /** The embedding of this project's chunks, once made (see {@link vectorSync}). */
  private sync: VectorSync | null = null;
  private syncLoading: Promise<VectorSync> | null = null;
  /** Tool calls running at once (`$CODECTX_ADMISSION_SLOTS`, else the default 4). */
  readonly admission: Admission = new Admission({
    slots: Number(Deno.env.get("CODECTX_ADMISSION_SLOTS") ?? "") || undefined,
  });

  /**
   * The process-wide pools an open project's calls run on — the analysis workers of the tools
   * and the regex scan workers — held while it is open (they end with their last holder).
   */
  private readonly releasePools = [holdToolPool(), holdScanWorker()];
  /** Ends the search workers a server's start gave the project. */
  private closeSearchWorkers: (() => void) | null = null;

  private constructor(
    /** The read model tools query. */
    readonly project: Project,
    embedder: string | undefined,
  ) {
    project.listen((e) => this.emit(e));
    project.scope.get(VECTOR_CHOICE, () => ({
      embedder,
      onProgress: (progress) => this.emit({ type: "progress", progress }),
    }));
  }

  /**
   * The embedding of this project's chunks, its code loaded when first asked: a command that
   * does not search (`explain`, `refs`) never loads it (issue 34).
   */
  vectorSync(): Promise<VectorSync> {
    return this.syncLoading ??= import("../search/vector_sync.ts").then(({ projectVectors }) =>
      this.sync = projectVectors(this.project)
    );
  }

  /** The embedding of this project's chunks; made by {@link vectorSync} (or a start, a health). */
  get vectors(): VectorSync {
    if (!this.sync) throw new Error("the vectors are made when first asked: await vectorSync()");
    return this.sync;
  }

  /**
   * Opens the project at `root` (or wraps an open one); fails with `invalid_argument` when
   * `root` is not a directory.
   */
  static async open(root: string | Project, opts: ServiceOptions = {}): Promise<ProjectService> {
    // What other domains add to the project's indexing runs is wired here, once: after the
    // commit of a large generation, its BM25F index and its graph parts on disk (no query
    // builds them then).
    // A process that does not serve (a command, an in-process executor) leaves the vectors
    // of what its runs indexed complete and written before a run's caller goes on, so that
    // no first query of the next process makes them; a server fills them in the background.
    let service: ProjectService | null = null;
    const vectors: RunHook = {
      afterRun: async () => {
        if (service && !service.started) await (await service.vectorSync()).fill();
      },
    };
    const project = typeof root === "string"
      ? await Project.open(root, {
        ...opts,
        hooks: [...(opts.hooks ?? []), graphPartsRunHook(), lexicalRunHook(), vectors],
      })
      : root;
    service = new ProjectService(project, opts.embedder);
    return service;
  }

  get root(): string {
    return this.project.root;
  }

  async health(): Promise<IndexStatus> {
    // Loaded when first asked (with the indexer's summary): a command never asks.
    const { indexStatus } = await import("./health.ts");
    return await indexStatus(this.project, await this.vectorSync(), this.watchStatus());
  }

  generation(): Promise<number | null> {
    return this.project.currentGeneration();
  }

  /** Whether edits are seen (a watcher runs and watches every folder), and why not. */
  private watchStatus(): WatchStatus {
    return this.watcher?.status() ?? { watching: false, reason: this.notWatching, folders: 0 };
  }

  subscribe(fn: (e: ServiceEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  start(opts: StartOptions = {}): Promise<void> {
    this.started ??= this.startOnce(opts);
    return this.started;
  }

  async vectorsReady(): Promise<VectorProgress> {
    return await (await this.vectorSync()).settle();
  }

  admit<T>(call: () => Promise<T>, opts?: AdmitOptions): Promise<T> {
    return this.admission.run(call, opts);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.watcher?.close();
      await Promise.race([this.project.settled(), delay(5_000)]);
      await this.syncLoading?.catch(() => {});
      this.sync?.close();
      this.closeSearchWorkers?.();
      for (const release of this.releasePools) release();
      this.project.close();
    })();
    return this.closing;
  }

  private async startOnce(opts: StartOptions): Promise<void> {
    const log = opts.log ?? ((line: string) => console.error(line));
    log(`codectx: project ${this.root}`);
    // A server scores searches on every core (`search_pool.ts`), started before the vectors;
    // what only a server runs is loaded here, not by a command.
    const { closeSearchWorkers, enableSearchWorkers } = await import("../search/search_pool.ts");
    const { warmSearch } = await import("../search/warm.ts");
    const workers = enableSearchWorkers(this.project);
    this.closeSearchWorkers = () => closeSearchWorkers(this.project);
    workers.backlog = () => this.admission.waiting;
    workers.start();
    if (opts.watch ?? true) await this.watch(log);
    else this.notWatching = "watching is off (--no-watch): run index_project after changes";
    try {
      log(`codectx: ${reportLine(await this.project.reindex())}`);
      // Vectors fill in behind lexical search, which is ready now.
      (await this.vectorSync()).start();
      void warmSearch(this.project);
    } catch (err) {
      log(`codectx: indexing failed: ${errorMessage(err)}`);
    }
  }

  private async watch(log: (line: string) => void): Promise<void> {
    const ignorePaths: string[] = [];
    for (const p of [this.project.store.dir, defaultIndexHome()]) {
      ignorePaths.push(await Deno.realPath(p).catch(() => p));
    }
    // The watcher (the walker and its ignore rules) is loaded by a server that watches.
    const { watchProject } = await import("./watch.ts");
    this.watcher = await watchProject(this.project, {
      ignorePaths,
      onReindex: (r) => {
        if (r.changed > 0) {
          log(`codectx: re-${reportLine(r)}`);
        }
      },
      onError: (err) => log(`codectx: watch: ${errorMessage(err)}`),
      onRoot: (present) =>
        log(
          present
            ? `codectx: the project root ${this.root} is back; indexing it again`
            : `codectx: the project root ${this.root} is gone; tools answer not_found until it is back`,
        ),
    });
    const status = this.watcher.status();
    if (!status.watching) log(`codectx: not watching the project: ${status.reason}`);
  }

  private emit(e: ServiceEvent): void {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch {
        // a listener's failure is not the indexer's
      }
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    Deno.unrefTimer(t);
  });
}
