/**
 * `get_context`: a symbol's definition and what helps most to use or change it, ranked and
 * packed to a token budget.
 */

import { z } from "npm:zod@4.1.9";
import { buildContextWindow, DEFAULT_MAX_TOKENS, MAX_TOKENS_LIMIT } from "../context/window.ts";
import { ENCODING } from "../context/tokens.ts";
import { defineTool } from "./tool.ts";
import { filePathArg, symbolNameArg } from "./schemas.ts";

/** The `get_context` tool. */
export const getContextTool = defineTool({
  name: "get_context",
  description:
    `A Markdown context window for a symbol: its definition with doc first, then the file's imports, its enclosing definition, signatures of what it calls and uses, its callers' call sites and sibling members — ranked by graph distance and PageRank, packed to max_tokens (${ENCODING} tokens), cut at line boundaries.`,
  input: z.object({
    symbol_name: symbolNameArg,
    file_path: filePathArg.optional().describe(
      "Only look in this file or folder (relative to the project root)",
    ),
    max_tokens: z.number().int().min(1).max(MAX_TOKENS_LIMIT).optional().describe(
      `Token budget (1–${MAX_TOKENS_LIMIT}, default ${DEFAULT_MAX_TOKENS})`,
    ),
  }),
  output: z.object({
    symbol: z.string(),
    file: z.string(),
    line: z.number().int(),
    text: z.string(),
    tokens: z.number().int(),
    max_tokens: z.number().int(),
    sources: z.array(
      z.object({
        file: z.string(),
        line: z.number().int(),
        end_line: z.number().int(),
        reason: z.string(),
      }),
    ),
    truncated: z.boolean(),
    candidates: z.array(z.string()).describe("Other symbols the name could mean (file:line name)"),
  }),
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
});
