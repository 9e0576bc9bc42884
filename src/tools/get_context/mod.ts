/**
 * `get_context`: a symbol's definition and what helps most to use or change it, ranked and
 * packed to a token budget.
 */

import { buildContextWindow, DEFAULT_MAX_TOKENS } from "../../context/window.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { command } from "./cli.ts";
import { render } from "./render.ts";
import { input, output } from "./schema.ts";

/** The `get_context` tool. */
export const getContextTool = defineTool({
  name: "get_context",
  description:
    "A symbol's definition, doc, imports, callees, call sites and siblings in one Markdown text.",
  input,
  output,
  annotations: READ_ONLY,
  handler: async ({ symbol_name, file_path, max_tokens }, { project }) => {
    const file = file_path ? project.resolvePath(file_path) : undefined;
    const max = max_tokens ?? DEFAULT_MAX_TOKENS;
    const w = await buildContextWindow(project, {
      symbolName: symbol_name,
      filePath: file || undefined,
      maxTokens: max,
    });
    return {
      symbol: w.symbol,
      file: w.file,
      line: w.line,
      text: w.text,
      tokens: w.tokens,
      max_tokens: max,
      sources: w.sources.map((s) => ({
        file: s.file,
        line: s.line,
        end_line: s.endLine,
        reason: s.reason,
      })),
      truncated: w.truncated,
      candidates: w.candidates.map((c) => `${c.file}:${c.line} ${c.qualifiedName}`),
    };
  },
  render,
  cli: command,
});
