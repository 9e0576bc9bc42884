/**
 * `codectx-code`: codectx's own static code-search model, shipped in
 * `model/codectx-code/` and run in pure TypeScript by `../codectx_code.ts`. It is the
 * default of `auto` when no local transformers model is present.
 *
 * - `id`: `codectx-code@<model checksum>`, so that a retrained model re-embeds;
 * - `documentText`: file path, enclosing definition and code (the layout it was trained on);
 * - queries are embedded as typed (the shared tokenizer drops stop words and stems).
 *
 * @module
 */

import type { EmbedderProvider } from "../embedder.ts";
import {
  checkCodectxCode,
  codeDocumentText,
  loadCodectxCode,
  modelId,
  readManifest,
} from "../codectx_code.ts";

/** The `codectx-code` provider. */
export const codectxCodeProvider: EmbedderProvider = {
  name: "codectx-code",
  id: async () => modelId(await readManifest()),
  check: () => checkCodectxCode(),
  load: () => loadCodectxCode(),
  documentText: (doc) => codeDocumentText(doc.file, doc.parent, doc.text),
};
