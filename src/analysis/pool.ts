/**
 * A small pool of analysis workers, used when a folder has many files; with size 0 the
 * work runs on the calling thread.
 *
 * @module
 */

import { analyzeSource, type FileAnalysis } from "./analyze.ts";

/** Analyzes files, possibly in parallel; `close()` ends the workers. */
export interface AnalysisPool {
  analyze(file: string, text: string, language: string): Promise<FileAnalysis>;
  close(): void;
}

interface Job {
  resolve: (r: FileAnalysis) => void;
  reject: (e: Error) => void;
  worker: number;
}

/** A pool of `size` workers (0: inline). Falls back to inline when workers cannot start. */
export function createAnalysisPool(size: number): AnalysisPool {
  const inline: AnalysisPool = { analyze: analyzeSource, close() {} };
  if (size <= 0) return inline;
  const workers: Worker[] = [];
  const load: number[] = [];
  const waiting = new Map<number, Job>();
  let nextId = 0;
  try {
    for (let i = 0; i < size; i++) {
      const w = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
      const index = i;
      w.onmessage = (
        e: MessageEvent<{ id: number; result?: FileAnalysis; error?: string }>,
      ) => {
        const job = waiting.get(e.data.id);
        if (!job) return;
        waiting.delete(e.data.id);
        load[index]--;
        if (e.data.result) job.resolve(e.data.result);
        else job.reject(new Error(e.data.error ?? "analysis worker failed"));
      };
      w.onerror = (e) => {
        e.preventDefault();
        for (const [id, job] of waiting) {
          if (job.worker !== index) continue;
          waiting.delete(id);
          job.reject(new Error(`analysis worker failed: ${e.message}`));
        }
      };
      workers.push(w);
      load.push(0);
    }
  } catch {
    for (const w of workers) w.terminate();
    return inline;
  }
  return {
    analyze(file, text, language) {
      let best = 0;
      for (let i = 1; i < load.length; i++) if (load[i] < load[best]) best = i;
      const id = nextId++;
      load[best]++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject, worker: best });
        workers[best].postMessage({ id, file, text, language });
      });
    },
    close() {
      for (const w of workers) w.terminate();
      for (const job of waiting.values()) job.reject(new Error("analysis pool closed"));
      waiting.clear();
    },
  };
}

/** Workers for a run of `files` files: none for a few, else one per core (at most 4). */
export function poolSizeFor(files: number): number {
  if (files < 48) return 0;
  return Math.max(1, Math.min(4, navigator.hardwareConcurrency ?? 2));
}
