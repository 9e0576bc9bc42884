/**
 * `explain_file`'s wire shapes: its arguments and its payload.
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import { filePathArg, symbolSchema } from "../schemas.ts";

/** At most this many lines of a file's text are answered. */
export const MAX_SOURCE_LINES = 20_000;

/** Its arguments. */
export const input = z.object({
  file_path: filePathArg,
  include_source: z.boolean().optional().describe("Also the text"),
  include_names: z.boolean().optional().describe("For viewers"),
  line: z.number().int().optional().describe("Then only that line, under its if/loop lines"),
});

/** Its payload. */
export const output = z.object({
  file: z.string(),
  language: z.string(),
  lines: z.number().int(),
  size: z.number().int(),
  symbols: z.array(symbolSchema),
  imports: z.array(z.object({
    module: z.string(),
    resolved: z.string().nullable(),
    external: z.boolean(),
    package: z.string().nullable(),
    line: z.number().int(),
    names: z.array(z.string()),
  })),
  imported_by: z.array(z.string()),
  parse_error: z.string().nullable(),
  source: z.string().optional().describe("The file's text, with include_source"),
  line_context: z.array(z.string()).optional().describe(
    "With line: its function's line, the heads it sits under and the lines around it, numbered",
  ),
  source_truncated: z.boolean().optional().describe(
    `Whether source stops at ${MAX_SOURCE_LINES} lines`,
  ),
  source_names: z.array(z.tuple([z.number(), z.number()])).optional().describe(
    "With include_names: [line, column] (1-based, UTF-16 columns) of every name the parser " +
      "read as code (definitions and references), so a viewer can link names in code and " +
      "leave those in comments and strings alone",
  ),
});

/** What `explain_file` answers. */
export type ExplainFilePayload = z.infer<typeof output>;
