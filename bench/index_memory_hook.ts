/**
 * Preloaded by `bench/index_memory.ts` (`deno run --preload`) into the process it measures:
 * every 200 ms each thread that runs JavaScript (the main thread and every worker started
 * after this module loaded) appends its V8 heap, space by space, to the file named by
 * `$CODECTX_MEM_LOG`, one JSON line per sample, with its thread id (for `/proc/PID/task`).
 * Workers get it by a one-line module that imports this one and then the worker's own.
 *
 * @module
 */

import v8 from "node:v8";
import { isMainThread } from "node:worker_threads";

const LOG = Deno.env.get("CODECTX_MEM_LOG");
const SELF = import.meta.url;

/** This thread's id (`/proc/thread-self` → `PID/task/TID`). */
function threadId(): number {
  return Number(Deno.readLinkSync("/proc/thread-self").split("/").pop());
}

/** One sample: the heap by space (MiB, physical), the isolate's external memory. */
function sample(tid: number, kind: string): string {
  const spaces: Record<string, number> = {};
  for (const s of v8.getHeapSpaceStatistics()) {
    spaces[s.space_name] = s.physical_space_size;
  }
  const m = Deno.memoryUsage();
  return JSON.stringify({
    t: Date.now(),
    tid,
    kind,
    spaces,
    heapTotal: m.heapTotal,
    heapUsed: m.heapUsed,
    external: m.external,
  });
}

if (LOG) {
  const tid = threadId();
  // A Web Worker has a WorkerGlobalScope; a `node:worker_threads` worker is not the main thread.
  const worker = !isMainThread ||
    typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== "undefined";
  const timer = setInterval(() => {
    try {
      Deno.writeTextFileSync(LOG, sample(tid, worker ? "worker" : "main") + "\n", {
        append: true,
      });
    } catch {
      // The log's folder is gone: the bench ended.
    }
  }, 200);
  Deno.unrefTimer(timer);
  if (!worker) {
    const Real = globalThis.Worker;
    globalThis.Worker = class extends Real {
      constructor(url: string | URL, opts?: WorkerOptions) {
        const shim = Deno.makeTempFileSync({ prefix: "codectx-mem-hook-", suffix: ".ts" });
        Deno.writeTextFileSync(
          shim,
          `import ${JSON.stringify(SELF)};\nimport ${JSON.stringify(String(url))};\n`,
        );
        super(new URL(`file://${shim}`), opts);
      }
    };
  }
}
