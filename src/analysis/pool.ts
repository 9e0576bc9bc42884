/**
 * Analysis off the calling thread, under a time limit: jobs (a file's analysis, a
 * snippet's validation) run on module workers, and a job past its limit — or whose call was
 * aborted — is answered `timeout` at once; its worker is replaced once it is through (Deno
 * cannot stop a busy worker: see `stop` in {@link createAnalysisPool}). The server's own
 * thread never parses or analyzes, so it keeps answering while a hostile input is being
 * read.
 *
 * @module
 */

import { CodectxError } from "../errors.ts";
import type { FileAnalysis } from "./analyze.ts";
import type { ProjectView } from "./project_view.ts";
import type { SnippetOutline } from "./explain.ts";
import type { Validation } from "./validate.ts";
import { assetUrl } from "../util/assets.ts";
import { trimNativeHeapSoon } from "../util/native_heap.ts";
import { newStopFlag, raiseStopFlag } from "./stop_flag.ts";
import {
  type AnalysisJob,
  handleJob,
  type JobReply,
  type JobStarted,
  KEEP_VIEWS,
  viewData,
} from "./job.ts";

/** Limits of one job. */
export interface JobLimits {
  /** The call's signal: aborting it stops the job (its worker is terminated). */
  signal?: AbortSignal;
  /** Time limit of the job in ms (none when absent or 0). */
  timeoutMs?: number;
}

/** Runs analysis jobs on workers; `close()` ends them. */
export interface AnalysisPool {
  analyze(file: string, text: string, language: string, limits?: JobLimits): Promise<FileAnalysis>;
  /** Validates a snippet; with `explain`, the outline comes along (same worker, same limit). */
  validate(
    input: { code: string; language?: string; filePath?: string; explain?: boolean },
    view: ProjectView,
    limits?: JobLimits,
  ): Promise<Validation & { outline?: SnippetOutline }>;
  /** Workers alive now (started on demand, ended when idle, replaced after large inputs). */
  workers(): number;
  /** Workers started since the pool was made (a replaced one counts again). */
  started(): number;
  close(): void;
}

/** Time limit of one file's analysis in a folder run (a file past it is skipped). */
export const FILE_TIMEOUT_MS = 30_000;

/**
 * What a job's time limit allows on top for a worker that is starting (loading its module):
 * a file is charged for its own analysis only. The call's signal still bounds the whole call.
 */
const BOOT_ALLOWANCE_MS = 120_000;

const WORKER_URL = assetUrl("src/analysis/worker.ts");

interface Slot {
  worker: Worker | null;
  /** Ids of the project views this slot's worker holds. */
  views: Set<number>;
  /** Languages it has compiled (a warm worker is preferred). */
  warm: Set<string>;
  busy: boolean;
  /** The job running is a large input (see {@link RECYCLE_BYTES}). */
  big: boolean;
  /** Ends the worker once it has been idle for {@link IDLE_MS}. */
  idle?: ReturnType<typeof setTimeout>;
}

interface Queued {
  job: AnalysisJob;
  limits: JobLimits;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/**
 * A pool of `size` workers started on demand. With `size` 0, or when a worker cannot start,
 * jobs run on the calling thread (no time limit can stop them there).
 *
 * @example
 * ```ts
 * const pool = createAnalysisPool(1);
 * const a = await pool.analyze("a.py", "import pickle\n", "python", { timeoutMs: 5000 });
 * a.issues[0].test_id; // "B403"
 * pool.close();
 * ```
 */
export function createAnalysisPool(
  size: number,
  opts: { idleMs?: number } = {},
): AnalysisPool {
  const idleMs = opts.idleMs ?? IDLE_MS;
  const slots: Slot[] = Array.from(
    { length: size },
    () => ({ worker: null, views: new Set(), warm: new Set(), busy: false, big: false }),
  );
  const queue: Queued[] = [];
  let nextId = 0;
  let started = 0;
  let closed = false;
  let inline = size <= 0;

  const pick = (job: AnalysisJob): Slot | undefined => {
    const free = slots.filter((s) => !s.busy);
    const lang = job.language ?? "";
    return free.find((s) => s.warm.has(lang)) ?? free.find((s) => s.worker) ?? free[0];
  };

  // Large inputs take at most all workers but one: a small call never waits (and runs out
  // its time limit) behind a row of large ones.
  const bigRunning = () => slots.filter((s) => s.busy && s.big).length;
  const pump = () => {
    for (let i = 0; i < queue.length;) {
      const { job } = queue[i];
      if (slots.length > 1 && inputSize(job) > RECYCLE_BYTES && bigRunning() >= slots.length - 1) {
        i++;
        continue;
      }
      const slot = pick(job);
      if (!slot) return;
      start(slot, queue.splice(i, 1)[0]);
    }
  };

  const kill = (slot: Slot) => {
    clearTimeout(slot.idle);
    // The worker's thread frees its isolate as it exits: give those pages back after it.
    if (slot.worker) trimNativeHeapSoon();
    slot.worker?.terminate();
    slot.worker = null;
    slot.views.clear();
    slot.warm.clear();
  };

  const start = (slot: Slot, q: Queued) => {
    const { job, limits } = q;
    if (limits.signal?.aborted) return q.reject(timeoutError(job));
    clearTimeout(slot.idle);
    const booting = !slot.worker;
    if (!slot.worker) {
      try {
        slot.worker = new Worker(WORKER_URL, { type: "module" });
        started++;
      } catch {
        inline = true;
        runInline(job).then(q.resolve, q.reject);
        return;
      }
    }
    const worker = slot.worker;
    slot.busy = true;
    slot.big = inputSize(job) > RECYCLE_BYTES;
    const id = nextId++;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let held = 0; // the worker's memory after the job, as it reports it
    let answered = false;
    let released = false;
    /** Past its limit (or aborted): the caller has its answer, the worker still runs the job. */
    let abandoned = false;
    /** Raised when the job passes its limit: the job reads it and stops within a stage. */
    const stopFlag = newStopFlag();
    const answer = (err: Error | null, result?: unknown) => {
      if (answered) return;
      answered = true;
      limits.signal?.removeEventListener("abort", onAbort);
      if (err) q.reject(err);
      else q.resolve(result);
    };
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      worker.onmessage = null;
      worker.onerror = null;
      slot.busy = false;
      slot.big = false;
      // A parser's memory only grows: a worker that read a large input is replaced, so
      // the process returns to its size after a burst of big snippets or files.
      // So is one whose memory grew past a bound over many smaller ones, and one that ran
      // past its limit.
      if (
        slot.worker === worker &&
        (abandoned || inputSize(job) > RECYCLE_BYTES || held > RECYCLE_MEMORY)
      ) {
        kill(slot);
      }
      // A worker nobody used for a while ends (its grammars and parsers with it); the next
      // call starts one.
      if (slot.worker === worker) {
        slot.idle = setTimeout(() => {
          if (!slot.busy && slot.worker === worker) kill(slot);
        }, idleMs);
        Deno.unrefTimer(slot.idle as unknown as number);
      }
      if (!closed) pump();
    };
    const finish = (err: Error | null, result?: unknown) => {
      answer(err, result);
      release();
    };
    // Deno (2.9) does not stop a busy worker on `terminate()` — its thread runs the job to
    // the end (measured). So a job past its limit is answered at once and its stop flag
    // raised (`stop_flag.ts`: the job ends within the stage it is in), but its slot stays
    // taken until the worker is through (then it is replaced): the workers that
    // run never outnumber the slots, where replacing at once had the abandoned jobs run on
    // beside new workers, each with its isolate. A worker that does not come back within
    // ABANDONED_MS is let go (terminated, for a runtime where that works).
    const stop = () => {
      answer(timeoutError(job));
      if (abandoned) return;
      abandoned = true;
      raiseStopFlag(stopFlag);
      clearTimeout(timer);
      timer = setTimeout(() => {
        kill(slot);
        release();
      }, ABANDONED_MS);
      Deno.unrefTimer(timer as unknown as number);
    };
    const onAbort = () => stop();
    limits.signal?.addEventListener("abort", onAbort, { once: true });
    const arm = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(stop, ms);
    };
    if (limits.timeoutMs) arm(limits.timeoutMs + (booting ? BOOT_ALLOWANCE_MS : 0));
    worker.onmessage = (e: MessageEvent<JobReply | JobStarted>) => {
      if (e.data.id !== id) return;
      if ("started" in e.data) {
        if (limits.timeoutMs && !abandoned) arm(limits.timeoutMs);
        return;
      }
      held = e.data.memory ?? 0;
      if ("error" in e.data) finish(new CodectxError(e.data.error.code, e.data.error.message));
      else finish(null, e.data.result);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      kill(slot);
      finish(new CodectxError("internal", `analysis worker failed: ${e.message}`));
    };
    let sent: AnalysisJob = job;
    if (job.kind === "validate") {
      if (slot.views.has(job.viewId)) sent = { ...job, view: undefined };
      else {
        // The worker keeps the last few views; this mirror forgets in the same order.
        slot.views.add(job.viewId);
        for (const old of slot.views) if (slot.views.size > KEEP_VIEWS) slot.views.delete(old);
      }
    } else slot.warm.add(job.language);
    worker.postMessage({ id, job: sent, stop: stopFlag });
  };

  const run = (job: AnalysisJob, limits: JobLimits = {}): Promise<unknown> => {
    if (closed) return Promise.reject(new CodectxError("internal", "analysis pool closed"));
    if (inline) return runInline(job);
    return new Promise((resolve, reject) => {
      const q: Queued = { job, limits, resolve, reject };
      queue.push(q);
      // A call that ends while its job waits takes the job out of the queue.
      limits.signal?.addEventListener("abort", () => {
        const at = queue.indexOf(q);
        if (at === -1) return;
        queue.splice(at, 1);
        reject(timeoutError(job));
      }, { once: true });
      pump();
    });
  };

  return {
    analyze: (file, text, language, limits) =>
      run({ kind: "analyze", file, text, language }, limits) as Promise<FileAnalysis>,
    validate: (input, view, limits) => {
      const { id, data } = viewData(view);
      return run({ kind: "validate", ...input, viewId: id, view: data }, limits) as Promise<
        Validation & { outline?: SnippetOutline }
      >;
    },
    workers: () => slots.filter((s) => s.worker).length,
    started: () => started,
    close() {
      closed = true;
      for (const s of slots) kill(s);
      for (const q of queue.splice(0)) {
        q.reject(new CodectxError("internal", "analysis pool closed"));
      }
    },
  };
}

/** Input size past which a job's worker is replaced once it is done (see `finish`). */
export const RECYCLE_BYTES = 64 * 1024;

/** Memory of a worker's isolate (heap and external, parsers' WASM included) past which it is replaced. */
export const RECYCLE_MEMORY = 96 * 1024 * 1024;

/**
 * How long a worker whose job passed its limit may take to finish it before its slot is freed
 * anyway (the slowest input within the body limit takes ~6 s of CPU).
 */
const ABANDONED_MS = 120_000;

/** How long a worker may sit idle before it ends (ms; `createAnalysisPool`'s `idleMs`). */
export const IDLE_MS = 15_000;

function inputSize(job: AnalysisJob): number {
  return job.kind === "analyze" ? job.text.length : job.code.length;
}

function timeoutError(job: AnalysisJob): CodectxError {
  return new CodectxError(
    "timeout",
    job.kind === "validate"
      ? "validating the code took longer than its time limit and was stopped; validate a smaller part"
      : `analyzing '${job.file}' took longer than its time limit and was stopped`,
  );
}

/** A job on the calling thread (workers unavailable). */
async function runInline(job: AnalysisJob): Promise<unknown> {
  return await handleJob(job, () => undefined);
}

/** Workers for a run of `files` files: one for a few, else one per core (at most 4). */
export function poolSizeFor(files: number): number {
  if (files < 48) return 1;
  return Math.max(1, Math.min(4, navigator.hardwareConcurrency ?? 2));
}

let shared: AnalysisPool | null = null;
let users = 0;

/**
 * The pool tool calls share (two workers), held while an executor is open: {@link
 * holdToolPool} on open, the returned release on close; the workers end with the last.
 */
export function toolPool(): AnalysisPool {
  shared ??= createAnalysisPool(Math.max(1, Math.min(2, navigator.hardwareConcurrency ?? 2)));
  return shared;
}

/** Marks the shared pool as used; the returned function releases it. */
export function holdToolPool(): () => void {
  users++;
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    if (--users === 0 && shared) {
      shared.close();
      shared = null;
    }
  };
}
