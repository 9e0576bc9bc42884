/**
 * Parsing worker: answers each {@link ParseJob} of the pool with its encoded extraction.
 *
 * @module
 */

/// <reference lib="deno.worker" />

import { serveJobs } from "../util/worker_pool.ts";
import { extractEncoded } from "./extract.ts";
import type { ParseJob } from "./pool.ts";

serveJobs(self, (job: ParseJob) => extractEncoded(job.path, job.bytes, job.language));
