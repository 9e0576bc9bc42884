/**
 * `semantic_search`: Find code by meaning: ranked snippets for a question in plain words or code (hybrid lexical + vector search).
 *
 * Registered with its final schemas; the handler lands with its own issue.
 */

import { z } from "zod";
import { notImplemented } from "./not_implemented.ts";
import { defineTool } from "./tool.ts";
import { searchItemSchema, topKArg } from "./schemas.ts";
/** The `semantic_search` tool. */
export const semanticSearchTool = defineTool({
  name: "semantic_search",
  description:
    "Find code by meaning: ranked snippets for a question in plain words or code (hybrid lexical + vector search).",
  input: z.object({
    query: z.string().min(1).max(4096).describe("What to find, in plain words or code"),
    top_k: topKArg.optional(),
    threshold: z.number().min(0).max(1).optional().describe("Minimum score in [0, 1]"),
    path_prefix: z.string().optional().describe("Only files under this folder"),
    language: z.string().optional().describe("Only files of this language"),
    mode: z.enum(["hybrid", "lexical", "dense"]).optional().describe(
      "Retrieval mode (default hybrid)",
    ),
  }),
  output: z.object({
    query: z.string(),
    snippets: z.array(searchItemSchema),
    index_state: z.string(),
  }),
  handler: () => notImplemented("semantic_search"),
});
