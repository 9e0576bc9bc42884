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
  /**
   * Buffers of a job to move to the worker instead of copying them (they are detached
   * here once the job is sent).
   */
  readonly transfer?: (job: In) => ArrayBuffer[];
}

/** Starts one worker whose answers go to `onReply` and whose failure goes to `onFail`. */
function startWorker<Out>(
  url: URL,
  onReply: (reply: Reply<Out>) => void,
  onFail: (message: string) => void,
): Worker {
  const w = new Worker(url, { type: "module" });
  w.onmessage = (e: MessageEvent<Reply<Out>>) => onReply(e.data);
  w.onerror = (e) => {
    e.preventDefault();
    onFail(e.message);
  };
  return w;
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
      const index = i;
      workers.push(
        startWorker<Out>(opts.url, settle, (message) => failWorker(index, message)),
      );
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
        workers[worker].postMessage(envelope, opts.transfer?.(job) ?? []);
      });
    },
    close() {
      for (const w of workers) w.terminate();
      for (const job of waiting.values()) job.reject(new Error(`${opts.name} pool closed`));
      waiting.clear();
    },
  };
}

/**
 * The buffers of `views` that hold nothing but that view, each once: what a job or a result
 * can move to another thread instead of copying (a view into a larger buffer is copied).
 *
 * @example
 * ```ts
 * wholeBuffers([new Uint8Array(4), new Uint8Array(8).subarray(2)]).length; // 1
 * ```
 */
export function wholeBuffers(views: Iterable<Uint8Array>): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const v of views) {
    if (
      v.buffer instanceof ArrayBuffer && v.byteOffset === 0 &&
      v.byteLength === v.buffer.byteLength
    ) out.add(v.buffer);
  }
  return [...out];
}

/** The part of a worker's global scope that {@link serveJobs} uses. */
export interface JobScope {
  onmessage: ((e: MessageEvent) => void) | null;
  postMessage(message: unknown, transfer?: ArrayBuffer[]): void;
}

/**
 * Answers a pool's jobs inside a worker module: each job goes to `handle`, and its
 * result (or the message of what it threw) goes back to the pool; `transfer` names the
 * result's buffers to move to the pool instead of copying them.
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
  transfer?: (result: Out) => ArrayBuffer[],
): void {
  scope.onmessage = async (e: MessageEvent<Envelope<In>>) => {
    const { id, job } = e.data;
    let reply: Reply<Out>;
    let moved: ArrayBuffer[] = [];
    try {
      const result = await handle(job);
      reply = { id, result };
      if (transfer) moved = transfer(result);
    } catch (err) {
      reply = { id, error: err instanceof Error ? err.message : String(err) };
    }
    scope.postMessage(reply, moved);
  };
}
