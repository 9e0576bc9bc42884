/**
 * Parsing worker: answers each {@link ParseJob} of the pool with its extraction.
 *
 * @module
 */

/// <reference lib="deno.worker" />

import { serveJobs } from "../util/worker_pool.ts";
import { extract } from "./extract.ts";
import type { ParseJob } from "./pool.ts";

serveJobs(self, (job: ParseJob) => extract(job.path, job.text, job.language));
