/**
 * Synchronous work under a hard time limit. A regular expression that backtracks, a loop over
 * a hostile input or a WebAssembly parser stuck in a grammar cannot be interrupted by a timer
 * or an abort signal: they never yield to the event loop. Nor can their worker be ended: Deno
 * (2.9) does not stop a busy worker on `terminate()`, its thread runs the job to the end
 * (measured: a `while (true)` worker kept its core after `terminate()`). What V8 can do is end
 * the running script from a watchdog thread, and `node:vm`'s `timeout` does exactly that:
 * the work throws at the limit, on the main thread or in a worker, and the thread is usable
 * again at once (measured: a backtracking `/^(\w+\s?)*!$/u`, a JS loop and a wasm loop all
 * stopped within 10–40 ms of a 300 ms limit; a call costs ~0.15–0.4 ms).
 *
 * What was running is cut off wherever it was: state it was changing may be half made. Keep
 * the bounded function's effects local (a match loop over strings), or throw the state away
 * after a timeout (a parser's heap: end the worker, which is idle then).
 *
 * @module
 */

import vm from "node:vm";

/** Thrown by {@link runBounded} when the work passed its limit. */
export class BoundExceeded extends Error {
  constructor(readonly limitMs: number) {
    super(`stopped after ${limitMs} ms`);
    this.name = "BoundExceeded";
  }
}

let context: vm.Context | null = null;
/** True while a bounded function runs on this thread (an inner call runs under the outer limit). */
let inside = false;

/**
 * Runs `fn` and returns what it returns, or throws {@link BoundExceeded} once it has run for
 * `limitMs` (at least 1 ms; `Infinity`: no limit). Errors `fn` throws pass through unchanged.
 *
 * @example
 * ```ts
 * try {
 *   runBounded(() => /^(\w+\s?)*!$/u.test("a".repeat(40)), 200);
 * } catch (e) {
 *   if (e instanceof BoundExceeded) console.log("the pattern backtracks");
 * }
 * ```
 */
export function runBounded<T>(fn: () => T, limitMs: number): T {
  if (inside || limitMs === Infinity) return fn();
  const limit = Math.max(1, Math.ceil(limitMs));
  context ??= vm.createContext({ run: null as null | (() => unknown) });
  context.run = fn;
  inside = true;
  try {
    return vm.runInContext("run()", context, { timeout: limit }) as T;
  } catch (err) {
    if ((err as { code?: string })?.code === "ERR_SCRIPT_EXECUTION_TIMEOUT") {
      throw new BoundExceeded(limit);
    }
    throw err;
  } finally {
    inside = false;
    context.run = null;
  }
}

/** How long a call may still run: its abort signal and its deadline (epoch ms). */
export interface CallLimits {
  /** Aborted when the call ends early (its limit passed, its client left). */
  signal?: AbortSignal;
  /** `Date.now()` past which the call's work must stop (absent: no deadline). */
  deadline?: number;
}

/**
 * Milliseconds left before `limits.deadline` (never below 0), or `fallbackMs` when the
 * call has no deadline.
 *
 * @example
 * ```ts
 * remainingMs({ deadline: Date.now() + 5000 }, 30_000); // ≈ 5000
 * remainingMs({}, 30_000); // 30000
 * ```
 */
export function remainingMs(limits: CallLimits, fallbackMs: number): number {
  if (limits.deadline === undefined || !Number.isFinite(limits.deadline)) return fallbackMs;
  return Math.max(0, limits.deadline - Date.now());
}
