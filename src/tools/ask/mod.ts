/**
 * `ask`: answers a question from the code, citing `file:line`. Offline by default; with
 * `CODECTX_LLM_URL` (and `CODECTX_LLM_MODEL`, `CODECTX_LLM_KEY`) set, an OpenAI-compatible
 * chat endpoint writes the answer from the same retrieved sources.
 */

import { askQuestion } from "../../context/answer.ts";
import { llmConfigFromEnv } from "../../context/llm.ts";
import { errorMessage } from "../../errors.ts";
import { projectVectors, type VectorProgress } from "../../search/vector_sync.ts";
import { defineTool } from "../tool.ts";
import { command } from "./cli.ts";
import { render } from "./render.ts";
import { input, output } from "./schema.ts";

/**
 * Why the sources may miss code found by meaning, from the vectors as they were when the
 * question came (the search does not wait for them): they failed, or were still being made (a
 * server that has just started); null when they were complete, or none are made.
 */
function partialSearch(v: VectorProgress): string | null {
  if (v.state === "error") {
    return `the vectors could not be made (${v.error ?? "embedder error"}), so the sources ` +
      "come from the lexical search alone";
  }
  if (v.state === "complete" || v.state === "off") return null;
  const far = v.total > 0 ? ` (${v.done} of ${v.total} chunks)` : "";
  return `the vectors were still being made${far}, so the sources come mostly from the ` +
    "lexical search; ask again shortly for the full answer";
}

/** The `ask` tool. */
export const askTool = defineTool({
  name: "ask",
  description:
    "Answer a question about the code with file:line citations (symbols, callers, callees, snippets).",
  input,
  output,
  // With CODECTX_LLM_URL set, the question and the sources go to that chat endpoint.
  annotations: { readOnlyHint: true, openWorldHint: true },
  handler: async ({ question, top_k }, { project, signal }) => {
    let llm = null;
    let warning: string | undefined;
    try {
      llm = llmConfigFromEnv();
    } catch (err) {
      warning = `${errorMessage(err)}; this is the offline answer`;
    }
    const vectors = projectVectors(project).progress();
    // Notes above the answer: an unusable model setting, a search without all its vectors.
    const notes = [warning, partialSearch(vectors)].filter((n): n is string => !!n);
    return await askQuestion(project, question, { topK: top_k, llm, signal, notes });
  },
  render,
  cli: command,
});
