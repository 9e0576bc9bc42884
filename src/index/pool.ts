/**
 * A pool of parsing workers, one per core, so indexing uses the whole machine.
 */

import { extract, type Extraction } from "./extract.ts";

/** Parses files in parallel; `close()` ends the workers. */
export interface ParsePool {
  extract(path: string, text: string, language: string): Promise<Extraction>;
  close(): void;
}

/** How many more queued files a warm worker may have than the least busy one. */
const AFFINITY_SLACK = 2;

/** A pool of `size` workers; with size 0 everything runs on the calling thread. */
export function createParsePool(size = defaultPoolSize()): ParsePool {
  if (size <= 0) return { extract, close() {} };
  const workers: Worker[] = [];
  const load: number[] = [];
  const languages: Set<string>[] = [];
  const waiting = new Map<number, { resolve: (r: Extraction) => void; worker: number }>();
  let nextId = 0;
  for (let i = 0; i < size; i++) {
    const w = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
    w.onmessage = (e: MessageEvent<{ id: number; result: Extraction }>) => {
      const job = waiting.get(e.data.id);
      if (!job) return;
      waiting.delete(e.data.id);
      load[job.worker]--;
      job.resolve(e.data.result);
    };
    workers.push(w);
    load.push(0);
    languages.push(new Set());
  }
  return {
    extract(path, text, language) {
      // Prefer a worker that already compiled this grammar (compiling one can take a
      // second); spread the work once that worker is well ahead of the least busy one.
      let best = 0;
      for (let i = 1; i < load.length; i++) if (load[i] < load[best]) best = i;
      let warm = -1;
      for (let i = 0; i < load.length; i++) {
        if (languages[i].has(language) && (warm === -1 || load[i] < load[warm])) warm = i;
      }
      if (warm !== -1 && load[warm] <= load[best] + AFFINITY_SLACK) best = warm;
      languages[best].add(language);
      const id = nextId++;
      load[best]++;
      return new Promise((resolve) => {
        waiting.set(id, { resolve, worker: best });
        workers[best].postMessage({ id, path, text, language });
      });
    },
    close() {
      for (const w of workers) w.terminate();
    },
  };
}

/** One worker per core. */
export function defaultPoolSize(): number {
  return Math.max(1, Math.min(8, navigator.hardwareConcurrency ?? 2));
}
