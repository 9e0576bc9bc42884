/**
 * An {@link Embedder} whose model runs in a worker (`embed_worker.ts`), a pool of one: the
 * model is loaded by the first job, texts are embedded by the next ones.
 *
 * @module
 */

import type { Embedder, ResolvedEmbedder } from "./embedder.ts";
import { assetUrl } from "../util/assets.ts";
import { createPool } from "../util/worker_pool.ts";

type Job = { type: "load"; provider: string; arg: string } | { type: "embed"; texts: string[] };

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
export async function workerEmbedder(choice: ResolvedEmbedder): Promise<Embedder> {
  const pool = createPool<Job, Outgoing>({
    name: "embedding",
    member: { worker: assetUrl("src/search/embed_worker.ts") },
    size: 1,
    // The model lives in the worker: one that died cannot be replaced by one without it.
    restart: false,
    protocol: {
      send: (id, job) => (job.type === "embed" ? { ...job, id } : job),
      // The load's answers carry no job id (they answer the first job).
      read: (msg) => {
        const m = msg as Outgoing;
        if (m.type === "error") return { id: m.id, error: m.message };
        return m.type === "vectors" ? { id: m.id, result: m } : { result: m };
      },
    },
  });
  let loaded: Outgoing;
  try {
    loaded = await pool.run({ type: "load", provider: choice.provider.name, arg: choice.arg });
  } catch (err) {
    await pool.close();
    throw err;
  }
  const dims = loaded.type === "loaded" ? loaded.dimensions : 0;
  let closed = false;
  return {
    id: loaded.type === "loaded" ? loaded.id : "",
    dimensions: dims,
    async embed(texts) {
      if (closed) throw new Error("embedder closed");
      if (texts.length === 0) return [];
      const reply = await pool.run({ type: "embed", texts });
      const data = reply.type === "vectors" ? reply.data : new Float32Array();
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i++) out.push(data.subarray(i * dims, (i + 1) * dims));
      return out;
    },
    close() {
      if (closed) return;
      closed = true;
      void pool.close();
    },
  };
}
