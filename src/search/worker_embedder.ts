/**
 * An {@link Embedder} whose model runs in a worker (`embed_worker.ts`).
 *
 * @module
 */

import type { Embedder, ResolvedEmbedder } from "./embedder.ts";
import { assetUrl } from "../util/assets.ts";

type Outgoing =
  | { type: "loaded"; id: string; dimensions: number }
  | { type: "vectors"; id: number; data: Float32Array }
  | { type: "error"; id?: number; message: string };

/**
 * Starts a worker and loads `choice` in it; `close()` ends the worker.
 *
 * @example
 * ```ts
 * const e = await workerEmbedder(await resolveEmbedder("use-lite"));
 * const [v] = await e.embed(["parse the config"]);
 * e.close?.();
 * ```
 */
export function workerEmbedder(choice: ResolvedEmbedder): Promise<Embedder> {
  const worker = new Worker(assetUrl("src/search/embed_worker.ts"), { type: "module" });
  const waiting = new Map<
    number,
    { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void; n: number }
  >();
  let next = 0;
  let dims = 0;
  let closed = false;
  const failAll = (message: string) => {
    for (const w of waiting.values()) w.reject(new Error(message));
    waiting.clear();
  };
  return new Promise((resolveLoad, rejectOnLoad) => {
    const rejectLoad = (err: Error) => {
      if (dims === 0) worker.terminate();
      rejectOnLoad(err);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      const message = `embedding worker failed: ${e.message}`;
      rejectLoad(new Error(message));
      failAll(message);
    };
    worker.onmessage = (e: MessageEvent<Outgoing>) => {
      const msg = e.data;
      if (msg.type === "loaded") {
        dims = msg.dimensions;
        resolveLoad(embedder(msg.id));
        return;
      }
      if (msg.type === "error" && msg.id === undefined) {
        rejectLoad(new Error(msg.message));
        return;
      }
      const job = waiting.get(msg.id!);
      if (!job) return;
      waiting.delete(msg.id!);
      if (msg.type === "error") {
        job.reject(new Error(msg.message));
        return;
      }
      const out: Float32Array[] = [];
      for (let i = 0; i < job.n; i++) out.push(msg.data.subarray(i * dims, (i + 1) * dims));
      job.resolve(out);
    };
    worker.postMessage({ type: "load", provider: choice.provider.name, arg: choice.arg });
  });

  function embedder(id: string): Embedder {
    return {
      id,
      dimensions: dims,
      embed(texts) {
        if (closed) return Promise.reject(new Error("embedder closed"));
        if (texts.length === 0) return Promise.resolve([]);
        const jobId = next++;
        return new Promise((resolve, reject) => {
          waiting.set(jobId, { resolve, reject, n: texts.length });
          worker.postMessage({ type: "embed", id: jobId, texts });
        });
      },
      close() {
        if (closed) return;
        closed = true;
        worker.terminate();
        failAll("embedder closed");
      },
    };
  }
}
