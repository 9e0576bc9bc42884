/**
 * `transformers:<model-id-or-folder>`: an ONNX sentence-embedding model run by
 * `@huggingface/transformers` (onnxruntime-node), loaded only from a local folder or from
 * codectx's model folder (`codectx models pull <id>` is the one command that downloads).
 * Mean pooling over the last hidden state, unit-normalised.
 *
 * @module
 */

import type { Embedder, EmbedderProvider } from "../embedder.ts";
import { checkModelFolder, locateModel, onnxFile } from "../models.ts";
import { normalize } from "../vectors.ts";
import { importOptional, TRANSFORMERS } from "../optional_packages.ts";
import type { Transformers } from "../models.ts";

const BATCH = 32;

/** The `transformers:` provider. */
export const transformersProvider: EmbedderProvider = {
  name: "transformers",
  // onnxruntime-node runs inference on its own threads; a worker would only add risk.
  inWorker: false,
  id: (arg) => Promise.resolve(`transformers:${locateModel(arg).folder}`),
  check: (arg) => Promise.resolve(checkModelFolder(locateModel(arg).folder, arg)),
  documentText: (doc) => {
    const head = [doc.file, doc.symbol].filter(Boolean).join(" ");
    return `${head}\n${doc.text}`;
  },
  async load(arg): Promise<Embedder> {
    const { folder } = locateModel(arg);
    const problem = checkModelFolder(folder, arg);
    if (problem) throw new Error(problem);
    const tf = await importOptional<Transformers>(TRANSFORMERS, TRANSFORMERS.packages[0]);
    // Never reach the network from here: only `models pull` may download.
    tf.env.allowRemoteModels = false;
    tf.env.allowLocalModels = true;
    const onnx = onnxFile(folder)!;
    const extractor = await tf.pipeline("feature-extraction", folder, {
      dtype: onnx.dtype,
      local_files_only: true,
    });
    const run = async (texts: string[]): Promise<Float32Array[]> => {
      const out = await extractor(texts, { pooling: "mean", normalize: true });
      const [n, d] = out.dims as number[];
      const data = out.data as Float32Array;
      return Array.from({ length: n }, (_, i) => normalize(data.slice(i * d, (i + 1) * d)));
    };
    const probe = await run(["probe"]);
    const dimensions = probe[0].length;
    return {
      id: `transformers:${folder}`,
      dimensions,
      async embed(texts) {
        const out: Float32Array[] = [];
        for (let i = 0; i < texts.length; i += BATCH) {
          out.push(...await run(texts.slice(i, i + BATCH).map((t) => t.trim() || " ")));
        }
        return out;
      },
      close() {
        void extractor.dispose();
      },
    };
  },
};
