/**
 * `explain_symbol`: Explain one symbol: its definition, source, doc, members, callers and callees.
 *
 * Registered with its final schemas; the handler lands with its own issue.
 */

import { z } from "zod";
import { notImplemented } from "./not_implemented.ts";
import { defineTool } from "./tool.ts";
import { filePathArg, symbolNameArg, symbolSchema } from "./schemas.ts";
/** The `explain_symbol` tool. */
export const explainSymbolTool = defineTool({
  name: "explain_symbol",
  description: "Explain one symbol: its definition, source, doc, members, callers and callees.",
  input: z.object({
    symbol_name: symbolNameArg,
    file_path: filePathArg.optional(),
  }),
  output: z.object({
    symbol: symbolSchema,
    source: z.string(),
    doc: z.string(),
    callers: z.array(z.object({ name: z.string(), file: z.string(), line: z.number().int() })),
    callees: z.array(z.object({ name: z.string(), file: z.string(), line: z.number().int() })),
    children: z.array(symbolSchema),
    candidates: z.array(symbolSchema),
  }),
  handler: () => notImplemented("explain_symbol"),
});
