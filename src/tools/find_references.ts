/**
 * `find_references`: Find every reference to a symbol in code (not comments or strings), with its kind.
 *
 * Registered with its final schemas; the handler lands with its own issue.
 */

import { z } from "zod";
import { notImplemented } from "./not_implemented.ts";
import { defineTool } from "./tool.ts";
import { filePathArg, symbolNameArg, symbolSchema } from "./schemas.ts";
/** The `find_references` tool. */
export const findReferencesTool = defineTool({
  name: "find_references",
  description: "Find every reference to a symbol in code (not comments or strings), with its kind.",
  input: z.object({
    symbol_name: symbolNameArg,
    file_path: filePathArg.optional(),
  }),
  output: z.object({
    symbol: z.string(),
    definitions: z.array(symbolSchema),
    references: z.array(z.object({
      file: z.string(),
      line: z.number().int(),
      column: z.number().int(),
      context: z.string(),
      kind: z.string(),
    })),
    total: z.number().int(),
    truncated: z.boolean(),
  }),
  handler: () => notImplemented("find_references"),
});
