/**
 * Embedding models on this machine, for the `models` command: which ones are local, what
 * `--embedder auto` picks, and the one download codectx ever makes (on request).
 *
 * @module
 */

export { EMBEDDER_CHOICES } from "../search/embedder.ts";
export { localModels, modelsDir, pullModel } from "../search/models.ts";
export { resolveEmbedder } from "../search/providers.ts";
