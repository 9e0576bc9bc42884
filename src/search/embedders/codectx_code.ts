/**
 * `codectx-code`: codectx's own static code-search model (issue 8). This is the plug
 * point: until the trained model ships in the repository, `check` says so and `auto`
 * falls back to `use-lite`.
 *
 * To plug the model in, keep this export and fill in:
 * - `id`: `codectx-code@<model checksum>` so that a retrained model re-embeds;
 * - `check`: null once the model file is present;
 * - `load`: tokenise with `codeTokens` (`../tokens.ts`), look up, pool, normalise;
 * - `documentText` / `queryText`: what the model was trained on (code; a query as typed).
 *
 * @module
 */

import type { EmbedderProvider } from "../embedder.ts";

const MISSING =
  "codectx's own code model (codectx-code) is not built yet; use --embedder use-lite or auto";

/** The `codectx-code` provider (not available yet). */
export const codectxCodeProvider: EmbedderProvider = {
  name: "codectx-code",
  id: () => Promise.resolve("codectx-code@none"),
  check: () => Promise.resolve(MISSING),
  load: () => Promise.reject(new Error(MISSING)),
  documentText: (doc) => `${doc.file}\n${doc.text}`,
};
