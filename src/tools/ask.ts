/**
 * `ask`: Answer a question about the code, grounded in retrieved code with file:line citations.
 *
 * Registered with its final schemas; the handler lands with its own issue.
 */

import { z } from "zod";
import { notImplemented } from "./not_implemented.ts";
import { defineTool } from "./tool.ts";
import { searchItemSchema, topKArg } from "./schemas.ts";
/** The `ask` tool. */
export const askTool = defineTool({
  name: "ask",
  description:
    "Answer a question about the code, grounded in retrieved code with file:line citations.",
  input: z.object({
    question: z.string().min(1).max(4096),
    top_k: topKArg.optional(),
  }),
  output: z.object({
    answer: z.string(),
    sources: z.array(searchItemSchema),
  }),
  handler: () => notImplemented("ask"),
});
