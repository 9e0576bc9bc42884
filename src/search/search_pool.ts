/**
 * Search workers: a server scores and fuses ranked queries on every core, off the main
 * thread, so that its event loop stays free for HTTP, presentation and `/health`.
 *
 * Per generation the main thread builds a snapshot once: the row tables (file of each row,
 * kind and lines of each chunk), the BM25F index's bytes and the sealed int8 vectors, all in
 * shared memory (the vectors are made shared from the start: nothing is copied per worker).
 * A worker answers `rankQuery` of `pipeline.ts` (retrieve → fuse → rerank) over the snapshot, the same code
 * the main thread runs, so the answers are the same; the main thread presents the top k.
 * A query for a generation the workers do not hold yet (or with vectors still filling) is
 * answered on the main thread meanwhile. A call past its time limit ends at once; its query,
 * a bounded scoring, ends on its own in the worker and its answer is dropped.
 *
 * @module
 */

import type { Project } from "../project/project.ts";
import { slot } from "../util/memo.ts";
import type { LexicalIndex } from "./lexical.ts";
import type { ChunkTable } from "./table.ts";
import { noRowTraits, rowTraitsInSlices } from "./rerank_names.ts";
import type { FlatVectorIndex } from "./vectors.ts";
import type { RetrieveSources } from "./retrieve.ts";
import type { AnalysedQuery } from "./query.ts";
import type { SearchOptions } from "./options.ts";
import {
  KEPT_WEIGHTS,
  type SearchJob,
  type SearchReply,
  type SearchSnapshot,
  snapshotOf,
} from "./search_snapshot.ts";
import { currentTrace, mark } from "../util/request_trace.ts";
import { createPool, type Member, type Pool } from "../util/worker_pool.ts";

/**
 * Workers a server may start: `$CODECTX_SEARCH_WORKERS`, else one per core (at most 8). One
 * starts with the first snapshot; the next ones only when searches queue for the started
 * ones (each costs ~40–60 MiB: its own V8 heap and runtime), so a server searched one query
 * at a time keeps one. On two cores under 50 clients, a second worker took the stdlib's
 * hybrid load from ~393 to 428–531 req/s: one worker was 91 % busy while the main thread
 * (HTTP, JSON, presenting) had room.
 */
export function searchWorkerCount(): number {
  const env = Deno.env.get("CODECTX_SEARCH_WORKERS");
  const cores = navigator.hardwareConcurrency ?? 1;
  const n = env !== undefined && env !== "" ? Number(env) : Math.max(1, cores);
  return Number.isInteger(n) && n > 0 ? Math.min(n, 8) : 0;
}

const weightIds = new WeakMap<Float32Array, number>();
let weightCount = 0;

/** What a worker holds, as the pool tracks it. */
interface Held {
  /** Ids of the weight arrays it holds, oldest first. */
  weights: Set<number>;
  /** The snapshot it holds (0: none yet). */
  loaded: number;
}

interface Current {
  msg: SearchSnapshot;
  table: ChunkTable;
  lexical: LexicalIndex;
  vectors: FlatVectorIndex | null;
}

/** Search calls running now (`searchCall`): a lone one is answered on the main thread. */
const calls = { running: 0 };

/**
 * Runs a search call, counted while it runs (the `semantic_search` tool wraps its calls):
 * the workers take queries when several run at once.
 */
export async function searchCall<T>(run: () => Promise<T>): Promise<T> {
  calls.running++;
  try {
    return await run();
  } finally {
    calls.running--;
  }
}

/** The search workers of one project (started on first use, ended by `close`). */
export class SearchWorkers {
  private pool: Pool<SearchJob, SearchReply | null, Held> | null = null;
  private current: Current | null = null;
  private building = false;
  private closed = false;
  /** Queries answered by a worker, those run on the main thread instead, workers started. */
  readonly counts = { workers: 0, here: 0, started: 0 };
  /**
   * Calls waiting to start (the server's admission queue): while any wait, no query counts
   * as alone. Under load a freed place often passes on a later turn of the event loop, so
   * the next search started with nothing else running and was scored on the main thread —
   * slices of 100–300 ms that `/health` waited behind.
   */
  backlog: () => number = () => 0;

  constructor(readonly size: number) {}

  /**
   * The fused scores of `src`'s query (`rankQuery(src, query, opts, DEFAULT_FUSION, depth)`)
   * from a worker, or null when no worker holds `src`'s generation yet (it is prepared
   * meanwhile) or the query is lexical — the caller then runs the query itself.
   */
  async fuse(
    src: RetrieveSources,
    query: AnalysedQuery,
    opts: SearchOptions,
    depth: number,
    signal?: AbortSignal,
  ): Promise<Map<number, number> | null> {
    if (this.closed || this.size === 0) return null;
    // A lexical query's scoring (~0.7 ms on the stdlib) costs less than handing it over,
    // unless calls wait to start: the main thread is then the one that holds them back.
    if (src.mode === "lexical" && this.backlog() === 0) return null;
    signal?.throwIfAborted();
    const cur = this.current;
    const usable = cur !== null && cur.table === src.table &&
      (src.lexical === null || src.lexical === cur.lexical) &&
      (src.vectors === null || src.vectors === cur.vectors);
    if (!usable) {
      // Built after this query's answer is on its way (it runs here meanwhile).
      if (!this.building) {
        this.building = true;
        setTimeout(() => {
          this.building = false;
          this.prepare(src);
        }, 0);
      }
      this.counts.here++;
      return null;
    }
    const pool = this.pool;
    if (!pool || pool.failure) return null;
    // Alone (no other search call running or waiting, none in a worker), a query runs here:
    // handing it over would only add the hand-over to its latency.
    if (calls.running <= 1 && this.backlog() === 0 && pool.members.every((m) => m.load === 0)) {
      return null;
    }
    const id = cur.msg.id;
    const holds = (m: Member<Held>) => m.state.loaded === id;
    if (!pool.members.some(holds)) {
      // One that ended is replaced (it takes queries once it holds the snapshot).
      pool.warm();
      this.counts.here++;
      return null;
    }
    let weights = weightIds.get(src.fileWeight);
    if (weights === undefined) weightIds.set(src.fileWeight, weights = ++weightCount);
    const job: SearchJob = {
      id: 0,
      snapshot: id,
      query,
      mode: src.mode,
      opts: { top_k: opts.top_k },
      weights,
      fileWeight: src.fileWeight,
      qv: src.qv,
      depth,
    };
    const trace = currentTrace();
    if (trace) job.trace = true;
    let reply: SearchReply | null;
    try {
      // Searches queue for the started workers: one more starts (it takes queries once it
      // holds the snapshot). A call that ends (its limit, its client) ends now; its job, a
      // bounded scoring, ends on its own and its answer is dropped — replacing the worker
      // would not stop it (Deno's terminate() does not stop a busy worker).
      reply = await pool.run(job, { signal, only: holds });
    } catch (err) {
      if (signal?.aborted) throw err;
      return null; // its worker ended: the query runs here
    }
    if (trace) {
      mark("replied", trace);
      if (reply?.type === "fused" && reply.started) {
        trace.scoring = reply.started;
        trace.scored = reply.ended!;
      }
    }
    if (reply?.type !== "fused") {
      this.counts.here++;
      return null;
    }
    this.counts.workers++;
    const fused = new Map<number, number>();
    for (let i = 0; i < reply.rows.length; i++) fused.set(reply.rows[i], reply.scores[i]);
    return fused;
  }

  /** Ends the workers. */
  close(): void {
    this.closed = true;
    void this.pool?.close();
    this.pool = null;
    this.current = null;
  }

  /**
   * Builds the snapshot of `src`'s generation and hands it to the workers (started on the
   * first call), unless one is being built or `src` has nothing better to offer (vectors
   * still filling keep the hybrid queries here until they are sealed).
   */
  private prepare(src: RetrieveSources): void {
    if (this.building || this.closed || !src.lexical) return;
    const shared = src.vectors?.share() ?? null;
    const cur = this.current;
    if (
      cur && cur.table === src.table && cur.lexical === src.lexical &&
      (shared === null || cur.vectors === src.vectors)
    ) {
      return;
    }
    this.building = true;
    const lexical = src.lexical;
    this.start();
    if (this.closed) {
      this.building = false;
      return;
    }
    // The second stage's row traits, which only a search on sealed vectors reads: made by the
    // warm-up before the first hybrid query (a look-up then), else in slices that yield (~1 s
    // on the stdlib's first table); searches run here meanwhile, as until any snapshot is held.
    const made = shared ? rowTraitsInSlices(src.table) : Promise.resolve(noRowTraits());
    made.then((traits) => {
      if (this.closed) return;
      const msg = snapshotOf(src.table, lexical, shared, traits);
      this.current = { msg, table: src.table, lexical, vectors: shared ? src.vectors : null };
      for (const m of this.pool?.members ?? []) this.load(m);
    }).catch(() => {
      // A snapshot that could not be made: searches stay here.
      this.close();
    }).finally(() => {
      this.building = false;
    });
  }

  /**
   * Starts the first worker (a server does at its start), so that its modules load then: a
   * worker whose modules fail to load — a process out of descriptors under a flood of
   * connections — has Deno print an uncaught error whatever its handler does.
   */
  start(): void {
    if (this.closed || this.size === 0 || this.pool) return;
    this.pool = createPool<SearchJob, SearchReply | null, Held>({
      name: "search",
      member: { worker: new URL("./search_worker.ts", import.meta.url) },
      size: this.size,
      state: () => ({ weights: new Set(), loaded: 0 }),
      onStart: (m) => {
        this.counts.started++;
        this.load(m);
      },
      onMessage: (m, msg) => {
        if ((msg as SearchReply).type === "loaded") {
          m.state.loaded = (msg as { snapshot: number }).snapshot;
        }
      },
      protocol: {
        send: (id, job) => ({ ...job, id }),
        read: (msg) => {
          const m = msg as SearchReply;
          if (m.type === "loaded") return null;
          return { id: m.id, result: m.type === "fused" ? m : null };
        },
      },
      // File weights cross once per worker (both sides keep the last few, in the same order).
      forMember: (job, m) => {
        const trace = job.trace ? currentTrace() : undefined;
        if (trace) {
          trace.worker = m.slot;
          trace.ahead = m.load;
          mark("posted", trace);
        }
        const held = m.state.weights;
        if (held.has(job.weights)) return { ...job, fileWeight: null };
        held.add(job.weights);
        if (held.size > KEPT_WEIGHTS) held.delete(held.values().next().value!);
        return job;
      },
    });
    this.pool.warm();
    // No workers here (a binary built without the worker's module): searches stay here.
    if (this.pool.failure) this.close();
  }

  /** Workers started (more start while searches queue, up to `size`). */
  get started(): number {
    return this.pool?.members.length ?? 0;
  }

  /** Hands a worker the current snapshot. */
  private load(m: Member<Held>): void {
    if (this.current) m.post({ type: "load", snapshot: this.current.msg, slot: m.slot });
  }
}

/** A project's search workers (a server gives it some; a one-shot command none). */
const SEARCH_WORKERS = slot<Project, SearchWorkers>(
  "search workers",
  () => new SearchWorkers(searchWorkerCount()),
  (pool) => pool.close(),
);

/**
 * Gives `project` search workers (a server does, at its start; a one-shot command does
 * not: starting workers would cost it more than they save). `count` defaults to
 * {@link searchWorkerCount}; 0 keeps every search on the main thread.
 */
export function enableSearchWorkers(
  project: Project,
  count = searchWorkerCount(),
): SearchWorkers {
  return project.scope.get(SEARCH_WORKERS, () => new SearchWorkers(count));
}

/** The project's search workers, if it has them. */
export function searchWorkers(project: Project): SearchWorkers | null {
  return project.scope.peek(SEARCH_WORKERS) ?? null;
}

/** Ends the project's search workers. */
export function closeSearchWorkers(project: Project): void {
  project.scope.forget(SEARCH_WORKERS);
}
