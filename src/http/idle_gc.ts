/**
 * Gives a burst's memory back once a server is quiet. V8 collects garbage on its own, but its
 * idle collections keep the pages they freed (after a fuzz run a server sat at ~470 MiB with
 * 3 MiB of live heap); a full collection asked for explicitly releases them (→ ~60 MiB). That
 * needs the `gc` function, which V8 exposes with `--v8-flags=--expose-gc` (the deno.json tasks
 * pass it); without it this does nothing.
 *
 * @module
 */

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
  const gc = (globalThis as { gc?: () => void }).gc;
  let last = 0;
  let dirty = false;
  const id = gc
    ? setInterval(() => {
      if (dirty && performance.now() - last >= quietMs) {
        dirty = false;
        gc();
      }
    }, Math.max(100, quietMs / 2))
    : undefined;
  if (id !== undefined) Deno.unrefTimer(id as unknown as number);
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
