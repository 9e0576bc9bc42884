/**
 * `get_call_graph`: Callers and callees of a symbol, walked to a depth.
 *
 * Registered with its final schemas; the handler lands with its own issue.
 */

import { z } from "zod";
import { notImplemented } from "./not_implemented.ts";
import { defineTool } from "./tool.ts";
import { filePathArg, symbolNameArg } from "./schemas.ts";
/** The `get_call_graph` tool. */
export const getCallGraphTool = defineTool({
  name: "get_call_graph",
  description: "Callers and callees of a symbol, walked to a depth.",
  input: z.object({
    symbol_name: symbolNameArg,
    depth: z.number().int().min(1).max(5).optional().describe("How many hops (1–5, default 1)"),
    file_path: filePathArg.optional(),
    format: z.enum(["json", "mermaid"]).optional(),
  }),
  output: z.object({
    symbol: z.string(),
    callers: z.array(z.object({ name: z.string(), file: z.string(), line: z.number().int() })),
    callees: z.array(z.object({ name: z.string(), file: z.string(), line: z.number().int() })),
    edges: z.array(
      z.object({ from: z.string(), to: z.string(), file: z.string(), line: z.number().int() }),
    ),
  }),
  handler: () => notImplemented("get_call_graph"),
});
