/**
 * `summarize_repo`: Summarize the repository: languages, folders, entry points, dependencies, central symbols.
 *
 * Registered with its final schemas; the handler lands with its own issue.
 */

import { z } from "zod";
import { notImplemented } from "./not_implemented.ts";
import { symbolSchema } from "./schemas.ts";
import { defineTool } from "./tool.ts";

/** The `summarize_repo` tool. */
export const summarizeRepoTool = defineTool({
  name: "summarize_repo",
  description:
    "Summarize the repository: languages, folders, entry points, dependencies, central symbols.",
  input: z.object({}),
  output: z.object({
    name: z.string(),
    files: z.number().int(),
    lines: z.number().int(),
    languages: z.array(
      z.object({
        language: z.string(),
        files: z.number().int(),
        lines: z.number().int(),
        share: z.number(),
      }),
    ),
    top_dirs: z.array(
      z.object({ path: z.string(), files: z.number().int(), description: z.string() }),
    ),
    entry_points: z.array(z.object({ file: z.string(), kind: z.string() })),
    dependencies: z.array(
      z.object({ name: z.string(), version: z.string(), manifest: z.string() }),
    ),
    key_symbols: z.array(symbolSchema),
    text: z.string(),
  }),
  handler: () => notImplemented("summarize_repo"),
});
