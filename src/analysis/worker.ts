/**
 * Analysis worker: answers each job of the pool (`pool.ts`) — a file's analysis or a
 * snippet's validation — with its result or the code and message of what failed. Project
 * views arrive once and are kept by id (the last few).
 *
 * @module
 */

/// <reference lib="deno.worker" />

import type { ProjectView } from "./project_view.ts";
import {
  type AnalysisJob,
  handleJob,
  type JobReply,
  type JobStarted,
  KEEP_VIEWS,
  replyError,
  viewFromData,
} from "./job.ts";
import { setStopFlag } from "./stop_flag.ts";

const views = new Map<number, ProjectView>();

self.onmessage = async (
  e: MessageEvent<{ id: number; job: AnalysisJob; stop: Int32Array | null }>,
) => {
  const { id, job, stop } = e.data;
  setStopFlag(stop ?? null);
  self.postMessage({ id, started: true } satisfies JobStarted);
  let reply: JobReply;
  try {
    if (job.kind === "validate" && job.view) {
      views.set(job.viewId, viewFromData(job.view));
      for (const old of views.keys()) if (views.size > KEEP_VIEWS) views.delete(old);
    }
    const viewless = job.kind === "validate" ? { ...job, view: undefined } : job;
    reply = { id, result: await handleJob(viewless, (v) => views.get(v)) };
  } catch (err) {
    reply = replyError(id, err);
  } finally {
    setStopFlag(null);
  }
  const m = Deno.memoryUsage();
  self.postMessage({ ...reply, memory: m.heapUsed + m.external });
};
