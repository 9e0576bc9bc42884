/**
 * `codectx ask "QUESTION" [--top-k N] [--json]`: the answer; a model's answer also lists its
 * sources; a warning goes to standard error.
 *
 * @module
 */

import type { CliOutput, ToolCommand } from "../tool.ts";
import type { AskPayload } from "./schema.ts";

/** The payload as `codectx ask` prints it. */
export function print(p: AskPayload): CliOutput {
  const out = [p.answer];
  if (p.mode === "llm") {
    out.push(`\nSources: ${p.sources.map((s) => `${s.file}:${s.line}-${s.end_line}`).join(", ")}`);
  }
  return { out, err: p.warning ? [`codectx: warning: ${p.warning}`] : [] };
}

/** `codectx ask`. */
export const command: ToolCommand<AskPayload> = {
  command: "ask",
  synopsis: '"QUESTION"  an answer citing the code',
  help: `Usage: codectx ask "QUESTION" [options]

Answers a question from the code, citing file:line. Offline by default; set
CODECTX_LLM_URL (an OpenAI-compatible endpoint), CODECTX_LLM_MODEL and CODECTX_LLM_KEY
to have a chat model write the answer from the same sources.

Options:
  --top-k N         sources (1-100, default 6)
  --no-wait         answer at once, with the vectors computed so far
`,
  positional: {
    arg: "question",
    missing: 'ask needs a QUESTION, e.g. codectx ask "where is the config parsed?"',
  },
  options: {
    "top-k": { type: "string", arg: "top_k", int: {} },
    "no-wait": { type: "boolean" },
  },
  // Its sources come from the hybrid search: with the vectors, as `codectx search` waits for.
  vectors: true,
  print,
};
