/**
 * A pool of module workers that answer one job at a time, knowing nothing of the jobs:
 * the caller names the worker module and sends it messages; the worker module answers
 * through {@link serveJobs}. Used for parsing (the indexer) and analysis (quality runs).
 *
 * @module
 */

/** Options of {@link createWorkerPool}. */
export interface WorkerPoolOptions<In> {
  /** The worker module (it calls {@link serveJobs}). */
  readonly url: URL;
  /** How many workers to start. */
  readonly size: number;
  /** Names the workers in errors: `<name> worker failed`, `<name> pool closed`. */
  readonly name: string;
  /**
   * What a job needs warm in a worker (a grammar): a worker that already ran a job with
   * the same key is preferred while it is not far busier than the least busy one.
   */
  readonly affinity?: (job: In) => string;
}

/** Runs jobs on workers; `close()` ends the workers and rejects what is pending. */
export interface WorkerPool<In, Out> {
  run(job: In): Promise<Out>;
  close(): void;
}

/** A job as posted to a worker. */
interface Envelope<In> {
  id: number;
  job: In;
}

/** A worker's answer: a result, or the message of what it threw. */
type Reply<Out> = { id: number; result: Out } | { id: number; error: string };

interface Waiting<Out> {
  resolve: (r: Out) => void;
  reject: (e: Error) => void;
  worker: number;
}

/** How many more queued jobs a warm worker may have than the least busy one. */
const AFFINITY_SLACK = 2;

/**
 * Starts `size` workers of `url`. Returns null when `size` is 0 or a worker cannot
 * start, so that the caller runs the work on its own thread.
 *
 * @example
 * ```ts
 * const pool = createWorkerPool<string, number>({
 *   url: new URL("./length_worker.ts", import.meta.url),
 *   size: 2,
 *   name: "length",
 * });
 * await pool?.run("abc"); // 3
 * pool?.close();
 * ```
 */
export function createWorkerPool<In, Out>(
  opts: WorkerPoolOptions<In>,
): WorkerPool<In, Out> | null {
  if (opts.size <= 0) return null;
  const workers: Worker[] = [];
  const load: number[] = [];
  const warmKeys: Set<string>[] = [];
  const waiting = new Map<number, Waiting<Out>>();
  let nextId = 0;

  const settle = (reply: Reply<Out>) => {
    const job = waiting.get(reply.id);
    if (!job) return;
    waiting.delete(reply.id);
    load[job.worker]--;
    if ("result" in reply) job.resolve(reply.result);
    else job.reject(new Error(reply.error || `${opts.name} worker failed`));
  };
  /** Why a worker can take no more jobs (it failed), by index. */
  const dead: (string | undefined)[] = [];
  const failWorker = (index: number, message: string) => {
    dead[index] ??= `${opts.name} worker failed: ${message}`;
    for (const [id, job] of waiting) {
      if (job.worker !== index) continue;
      waiting.delete(id);
      job.reject(new Error(`${opts.name} worker failed: ${message}`));
    }
  };

  try {
    for (let i = 0; i < opts.size; i++) {
      const w = new Worker(opts.url, { type: "module" });
      const index = i;
      w.onmessage = (e: MessageEvent<Reply<Out>>) => settle(e.data);
      w.onerror = (e) => {
        e.preventDefault();
        failWorker(index, e.message);
      };
      workers.push(w);
      load.push(0);
      warmKeys.push(new Set());
    }
  } catch {
    for (const w of workers) w.terminate();
    return null;
  }

  /** The least busy worker, or a warm one that is not far behind it. */
  const pick = (key: string | undefined): number => {
    let best = 0;
    for (let i = 1; i < load.length; i++) if (load[i] < load[best]) best = i;
    if (key === undefined) return best;
    let warm = -1;
    for (let i = 0; i < load.length; i++) {
      if (warmKeys[i].has(key) && (warm === -1 || load[i] < load[warm])) warm = i;
    }
    if (warm !== -1 && load[warm] <= load[best] + AFFINITY_SLACK) best = warm;
    warmKeys[best].add(key);
    return best;
  };

  return {
    run(job) {
      const worker = pick(opts.affinity?.(job));
      // A worker that failed (its module threw, it ran out of memory) answers nothing more.
      if (dead[worker]) return Promise.reject(new Error(dead[worker]));
      const id = nextId++;
      load[worker]++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject, worker });
        const envelope: Envelope<In> = { id, job };
        workers[worker].postMessage(envelope);
      });
    },
    close() {
      for (const w of workers) w.terminate();
      for (const job of waiting.values()) job.reject(new Error(`${opts.name} pool closed`));
      waiting.clear();
    },
  };
}

/** The part of a worker's global scope that {@link serveJobs} uses. */
export interface JobScope {
  onmessage: ((e: MessageEvent) => void) | null;
  postMessage(message: unknown): void;
}

/**
 * Answers a pool's jobs inside a worker module: each job goes to `handle`, and its
 * result (or the message of what it threw) goes back to the pool.
 *
 * @example
 * ```ts
 * /// <reference lib="deno.worker" />
 * serveJobs(self, (text: string) => text.length);
 * ```
 */
export function serveJobs<In, Out>(
  scope: JobScope,
  handle: (job: In) => Out | Promise<Out>,
): void {
  scope.onmessage = async (e: MessageEvent<Envelope<In>>) => {
    const { id, job } = e.data;
    let reply: Reply<Out>;
    try {
      reply = { id, result: await handle(job) };
    } catch (err) {
      reply = { id, error: err instanceof Error ? err.message : String(err) };
    }
    scope.postMessage(reply);
  };
}
