/**
 * Analysis worker: answers each job of the pool (`pool.ts`) — a file's analysis or a
 * snippet's validation — with its result or the code and message of what failed, saying when
 * it begins (the job's time limit starts then) and how much memory it holds after. Project
 * views arrive once and are kept by id (the last few).
 *
 * @module
 */

/// <reference lib="deno.worker" />

import type { ProjectView } from "./project_view.ts";
import { handleJob } from "./job.ts";
import { type AnalysisJob, KEEP_VIEWS, viewFromData } from "./job_data.ts";
import { setStopFlag } from "./stop_flag.ts";
import { type JobScope, serveJobs } from "../util/worker_pool.ts";

const views = new Map<number, ProjectView>();

serveJobs(
  globalThis as unknown as JobScope,
  async (job: AnalysisJob, stop) => {
    setStopFlag(stop);
    try {
      if (job.kind === "validate" && job.view) {
        views.set(job.viewId, viewFromData(job.view));
        for (const old of views.keys()) if (views.size > KEEP_VIEWS) views.delete(old);
      }
      const viewless = job.kind === "validate" ? { ...job, view: undefined } : job;
      return await handleJob(viewless, (v) => views.get(v));
    } finally {
      setStopFlag(null);
    }
  },
  undefined,
  { started: true, memory: true },
);
