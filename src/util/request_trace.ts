/**
 * Where a request's time goes, stage by stage: with `$CODECTX_TRACE_STAGES` set to a file,
 * a server stamps each request at the stages it passes (the listener when the head is
 * parsed and when the answer is written, the executor at admission, the search pool at the
 * hand-over to a worker and back, the worker around its scoring) and appends one JSON line
 * per request to that file (`bench/bridge_load.ts --stages` reads it). Unset (the default),
 * every call here returns at once and nothing is kept.
 *
 * The stamps are epoch milliseconds (`performance.timeOrigin + performance.now()`), so those
 * of a worker, of the server and of a client on the same machine compare.
 *
 * @module
 */

/** One request's stamps by stage, and what it names (`id`: the caller's request id). */
export type Trace = Record<string, number | string>;

const file = Deno.env.get("CODECTX_TRACE_STAGES") ?? "";

/** Whether requests are traced in this process. */
export const tracing = file !== "";

/** The trace of the request in flight (node:async_hooks is loaded only when tracing: issue 34). */
const current = tracing ? new (await import("node:async_hooks")).AsyncLocalStorage<Trace>() : null;
let lines: string[] = [];

/** Now, in epoch milliseconds. */
export function stamp(): number {
  return performance.timeOrigin + performance.now();
}

/** A new trace stamped at `stage` (undefined when not tracing). */
export function startTrace(stage: string): Trace | undefined {
  return tracing ? { [stage]: stamp() } : undefined;
}

/** Runs `fn` with `trace` as the current request's (the stages below it stamp it). */
export function withTrace<T>(trace: Trace | undefined, fn: () => T): T {
  return trace && current ? current.run(trace, fn) : fn();
}

/** The current request's trace, if tracing. */
export function currentTrace(): Trace | undefined {
  return current?.getStore();
}

/** Stamps `stage` on `trace` (default: the current request's). */
export function mark(stage: string, trace: Trace | undefined = currentTrace()): void {
  if (trace) trace[stage] = stamp();
}

/** Keeps a finished request's trace (written every 2 s and when the process ends). */
export function endTrace(trace: Trace | undefined): void {
  if (!trace) return;
  lines.push(JSON.stringify(trace));
  if (lines.length >= 1000) flush();
}

function flush(): void {
  if (lines.length === 0) return;
  try {
    Deno.writeTextFileSync(file, lines.join("\n") + "\n", { append: true });
  } catch {
    // a trace is a measurement aid: never the server's failure
  }
  lines = [];
}

if (tracing) {
  Deno.unrefTimer(setInterval(flush, 2000));
  globalThis.addEventListener("unload", flush);
}
