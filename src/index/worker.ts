/**
 * Parsing worker: answers each {@link ParseJob} of the pool with its encoded extraction.
 *
 * @module
 */

/// <reference lib="deno.worker" />

import { type JobScope, serveJobs, wholeBuffers } from "../util/worker_pool.ts";
import { extractEncoded } from "./extract.ts";
import type { ParseJob } from "./pool.ts";

// The encoded parts are moved to the pool, not copied.
serveJobs(
  globalThis as unknown as JobScope,
  (job: ParseJob) => extractEncoded(job.path, job.bytes, job.language),
  (x) => wholeBuffers(Object.values(x.parts)),
);
