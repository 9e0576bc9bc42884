/**
 * Analysis off the calling thread, under a time limit: jobs (a file's analysis, a
 * snippet's validation) run on module workers, and a job past its limit — or whose call was
 * aborted — is answered `timeout` at once; its worker is replaced once it is through (Deno
 * cannot stop a busy worker: see `util/worker_pool.ts`). The server's own
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
import { createPool, heldPool, type JobLimits } from "../util/worker_pool.ts";
import { type AnalysisJob, KEEP_VIEWS, viewData } from "./job_data.ts";

export type { JobLimits };

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

/**
 * A pool of `size` workers started on demand, one job each at a time. With `size` 0, or when a
 * worker cannot start, jobs run on the calling thread (no time limit can stop them there). A
 * job past its limit is answered `timeout` at once and its stop flag raised (`stop_flag.ts`:
 * the job ends within the stage it is in); its worker is replaced once it is back.
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
  const pool = createPool<AnalysisJob, unknown, { views: Set<number> }>({
    name: "analysis",
    member: { worker: assetUrl("src/analysis/worker.ts") },
    size,
    perMember: 1,
    // A worker nobody used for a while ends (its grammars and parsers with it).
    idleMs: opts.idleMs ?? IDLE_MS,
    affinity: (job) => job.language,
    inputBytes: (job) => (job.kind === "analyze" ? job.text : job.code).length,
    // A parser's memory only grows: a worker that read a large input is replaced, so the
    // process returns to its size after a burst of big snippets or files; so is one whose
    // memory grew past a bound over many smaller ones, and one that ran past its limit.
    recycle: { inputBytes: RECYCLE_BYTES, memory: RECYCLE_MEMORY, afterTimeout: true },
    maxFailures: Infinity,
    bootMs: BOOT_ALLOWANCE_MS,
    abandonedMs: ABANDONED_MS,
    stopFlag: true,
    expired: (job) => timeoutError(job),
    // The analysis code loads here only when a job runs on this thread (a worker loads its own).
    inline: async (job) => (await import("./job.ts")).handleJob(job, () => undefined),
    state: () => ({ views: new Set() }),
    // A view crosses once per worker; the worker keeps the last few, this mirror forgets in
    // the same order.
    forMember(job, m) {
      if (job.kind !== "validate") return job;
      const views = m.state.views;
      if (views.has(job.viewId)) return { ...job, view: undefined };
      views.add(job.viewId);
      for (const old of views) if (views.size > KEEP_VIEWS) views.delete(old);
      return job;
    },
  });
  return {
    analyze: (file, text, language, limits) =>
      pool.run({ kind: "analyze", file, text, language }, limits) as Promise<FileAnalysis>,
    validate: (input, view, limits) => {
      const { id, data } = viewData(view);
      return pool.run({ kind: "validate", ...input, viewId: id, view: data }, limits) as Promise<
        Validation & { outline?: SnippetOutline }
      >;
    },
    workers: () => pool.members.length,
    started: () => pool.started,
    close: () => void pool.close(),
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

function timeoutError(job: AnalysisJob): CodectxError {
  return new CodectxError(
    "timeout",
    job.kind === "validate"
      ? "validating the code took longer than its time limit and was stopped; validate a smaller part"
      : `analyzing '${job.file}' took longer than its time limit and was stopped`,
  );
}

/** Workers for a run of `files` files: one for a few, else one per core (at most 4). */
export function poolSizeFor(files: number): number {
  if (files < 48) return 1;
  return Math.max(1, Math.min(4, navigator.hardwareConcurrency ?? 2));
}

const shared = heldPool(() =>
  createAnalysisPool(Math.max(1, Math.min(2, navigator.hardwareConcurrency ?? 2)))
);

/**
 * The pool tool calls share (two workers), held while an executor is open: {@link
 * holdToolPool} on open, the returned release on close; the workers end with the last.
 */
export const toolPool = (): AnalysisPool => shared.get();

/** Marks the shared pool as used; the returned function releases it. */
export const holdToolPool = (): () => void => shared.hold();
