/**
 * `get_dependencies`: Imports of a file (resolved to project files or marked external) and the files that import it; the whole graph when no file is given.
 *
 * Registered with its final schemas; the handler lands with its own issue.
 */

import { z } from "zod";
import { notImplemented } from "./not_implemented.ts";
import { defineTool } from "./tool.ts";
import { filePathArg } from "./schemas.ts";
/** The `get_dependencies` tool. */
export const getDependenciesTool = defineTool({
  name: "get_dependencies",
  description:
    "Imports of a file (resolved to project files or marked external) and the files that import it; the whole graph when no file is given.",
  input: z.object({
    file_path: filePathArg.optional(),
  }),
  output: z.object({
    file: z.string().nullable(),
    imports: z.array(z.object({
      module: z.string(),
      resolved: z.string().nullable(),
      external: z.boolean(),
      line: z.number().int(),
      names: z.array(z.string()),
    })),
    imported_by: z.array(z.string()),
  }),
  handler: () => notImplemented("get_dependencies"),
});
