/**
 * The worker that runs `exact` and `regex` scans (`grep_pool.ts`): each batch of texts is
 * scanned under the call's deadline, so a pattern that backtracks is cut off there and this
 * worker takes the next batch at once.
 *
 * @module
 */

/// <reference lib="deno.worker" />

import { type JobScope, serveJobs } from "../util/worker_pool.ts";
import { scanBounded, type ScanJob } from "./grep_pool.ts";

serveJobs(globalThis as unknown as JobScope, (job: ScanJob) => scanBounded(job));
