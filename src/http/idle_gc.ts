/**
 * Gives a burst's memory back once a server is quiet. V8 collects garbage on its own, but its
 * idle collections keep the pages they freed (after a fuzz run a server sat at ~470 MiB with
 * 3 MiB of live heap); a memory-reducing full collection asked for explicitly releases them. That
 * needs the `gc` function, which V8 exposes with `--v8-flags=--expose-gc` (the deno.json tasks
 * pass it); without it only the native heap is trimmed.
 *
 * After it the native heap's free pages go back too (`util/native_heap.ts`: glibc's arenas
 * keep what the runtime freed); from the collector's start, large blocks are mapped on their
 * own so that they go back when freed.
 *
 * @module
 */

import { releaseFreedMemory, tuneNativeHeap } from "../util/native_heap.ts";

/** How long a server must be quiet after requests before it collects (ms). */
export const QUIET_MS = 5_000;

/** Marks activity; a collection follows the first quiet period after it. */
export interface IdleCollector {
  /** A request arrived or ended. */
  touch(): void;
  stop(): void;
}

/**
 * Starts watching for quiet periods (its timer does not keep the process alive).
 *
 * @example
 * ```ts
 * const idle = idleCollector();
 * idle.touch(); // on each request
 * idle.stop();
 * ```
 */
export function idleCollector(quietMs = QUIET_MS): IdleCollector {
  // Every server (HTTP and stdio) starts one: large blocks get mappings of their own from here.
  tuneNativeHeap();
  let last = 0;
  let dirty = false;
  const id = setInterval(() => {
    if (dirty && performance.now() - last >= quietMs) {
      dirty = false;
      releaseFreedMemory();
    }
  }, Math.max(100, quietMs / 2));
  Deno.unrefTimer(id as unknown as number);
  return {
    touch() {
      last = performance.now();
      dirty = true;
    },
    stop() {
      clearInterval(id);
    },
  };
}
