/**
 * A job's stop flag (made and raised by the pool: `newStopFlag`, `raiseStopFlag` of
 * `util/worker_pool.ts`). The analysis pool raises it when a job passes its time limit (or its
 * call is aborted); the job reads it between its stages and tree-sitter asks it while it
 * parses and runs queries, so the job ends within a stage and its worker is free again.
 * Deno 2.9 does not stop a busy worker on `terminate()` — the thread runs its job to the
 * end — so the job has to stop itself.
 *
 * On a thread that has no flag (a job run inline) every check answers "go on".
 *
 * @module
 */

import { CodectxError } from "../errors.ts";

let flag: Int32Array | null = null;

/** The flag of the job this thread runs now (`null` when it runs none). */
export function setStopFlag(next: Int32Array | null): void {
  flag = next;
}

/** Whether the job running on this thread was asked to stop. */
export function stopRequested(): boolean {
  return flag !== null && Atomics.load(flag, 0) !== 0;
}

/** Ends the job here if it was asked to stop (its caller already has its `timeout`). */
export function stopPoint(): void {
  if (stopRequested()) {
    throw new CodectxError("timeout", "stopped: the job passed its time limit");
  }
}

/**
 * Options for tree-sitter's `parse` and `Query.matches`: they call the callback now and
 * then, and a `true` answer cancels the parse or the query.
 */
export const STOPPABLE = {
  progressCallback: stopRequested as (state: unknown) => void,
};
