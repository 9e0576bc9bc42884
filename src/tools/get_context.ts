/**
 * `get_context`: A context window for a symbol: its definition and what helps most to use or change it, packed to a token budget.
 *
 * Registered with its final schemas; the handler lands with its own issue.
 */

import { z } from "zod";
import { notImplemented } from "./not_implemented.ts";
import { defineTool } from "./tool.ts";
import { filePathArg, symbolNameArg } from "./schemas.ts";
/** The `get_context` tool. */
export const getContextTool = defineTool({
  name: "get_context",
  description:
    "A context window for a symbol: its definition and what helps most to use or change it, packed to a token budget.",
  input: z.object({
    symbol_name: symbolNameArg,
    file_path: filePathArg.optional(),
    max_tokens: z.number().int().min(1).max(32000).optional().describe(
      "Token budget (1–32000, default 2000)",
    ),
  }),
  output: z.object({
    symbol: z.string(),
    text: z.string(),
    tokens: z.number().int(),
    sources: z.array(
      z.object({
        file: z.string(),
        line: z.number().int(),
        end_line: z.number().int(),
        reason: z.string(),
      }),
    ),
    truncated: z.boolean(),
  }),
  handler: () => notImplemented("get_context"),
});
