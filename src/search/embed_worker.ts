/**
 * Embedding worker: loads one embedder and embeds texts, so the thread that answers
 * requests stays free while vectors are computed.
 *
 * Messages in: `{type: "load", provider, arg}`, `{type: "embed", id, texts}`.
 * Messages out: `{type: "loaded", id, dimensions}`, `{type: "vectors", id, data}` (rows ×
 * dims, transferred), `{type: "error", id?, message}`.
 *
 * @module
 */

/// <reference lib="deno.worker" />

import type { Embedder } from "./embedder.ts";
import { PROVIDERS } from "./providers.ts";

let embedder: Embedder | null = null;

type Incoming =
  | { type: "load"; provider: string; arg: string }
  | { type: "embed"; id: number; texts: string[] };

self.onmessage = async (e: MessageEvent<Incoming>) => {
  const msg = e.data;
  try {
    if (msg.type === "load") {
      const provider = PROVIDERS[msg.provider];
      if (!provider) throw new Error(`unknown embedder '${msg.provider}'`);
      embedder = await provider.load(msg.arg);
      self.postMessage({ type: "loaded", id: embedder.id, dimensions: embedder.dimensions });
      return;
    }
    if (!embedder) throw new Error("no embedder loaded");
    const vecs = await embedder.embed(msg.texts);
    const d = embedder.dimensions;
    const data = new Float32Array(vecs.length * d);
    vecs.forEach((v, i) => data.set(v, i * d));
    self.postMessage({ type: "vectors", id: msg.id, data }, [data.buffer]);
  } catch (err) {
    self.postMessage({
      type: "error",
      id: msg.type === "embed" ? msg.id : undefined,
      message: err instanceof Error ? err.message : String(err),
    });
  }
};
