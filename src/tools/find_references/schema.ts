/**
 * `find_references`' wire shapes: its arguments and its payload.
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import {
  filePathArg,
  includeTestsArg,
  resolutionSchema,
  symbolNameArg,
  symbolSchema,
} from "../schemas.ts";

/** Its arguments. */
export const input = z.object({
  symbol_name: symbolNameArg,
  file_path: filePathArg.optional().describe("The definition's file, for a shared name"),
  limit: z.number().int().min(1).max(2000).optional().describe("default 200, max 2000"),
  include_tests: includeTestsArg,
});

/** Its payload. */
export const output = z.object({
  symbol: z.string(),
  definitions: z.array(symbolSchema),
  references: z.array(z.object({
    file: z.string(),
    line: z.number().int(),
    column: z.number().int(),
    context: z.string(),
    kind: z.string(),
    symbol: z.string().describe("Qualified name of the definition it refers to"),
    in: z.string().nullable().describe("Qualified name of the enclosing symbol"),
    resolution: resolutionSchema,
  })),
  total: z.number().int(),
  truncated: z.boolean(),
  by_resolution: z.object({
    exact: z.number().int(),
    inferred: z.number().int(),
    name: z.number().int(),
  }),
  text_check: z.object({
    lines: z.number().int(),
    unlisted: z.array(z.object({
      file: z.string(),
      line: z.number().int(),
      kind: z.enum(["call", "comment", "string", "code"]),
      resolves_to: z.string().optional().describe("Another symbol the line's use resolves to"),
    })),
  }).nullable().describe("Lines of code holding the name; those no reference is on"),
});

/** What `find_references` answers. */
export type FindReferencesPayload = z.infer<typeof output>;
