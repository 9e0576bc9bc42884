/**
 * `explain_symbol`'s wire shapes: its arguments and its payload.
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import { MAX_NEIGHBOURS } from "../../context/explain.ts";
import { filePathArg, resolutionSchema, symbolNameArg, symbolSchema } from "../schemas.ts";

const neighbour = z.object({
  name: z.string(),
  file: z.string(),
  line: z.number().int(),
  resolution: resolutionSchema,
});

/** Its arguments. */
export const input = z.object({
  symbol_name: symbolNameArg,
  file_path: filePathArg.optional().describe(
    "Only look in this file or folder (relative to the project root)",
  ),
});

/** Its payload. */
export const output = z.object({
  symbol: symbolSchema,
  source: z.string(),
  source_truncated: z.boolean(),
  doc: z.string(),
  parent: symbolSchema.nullable(),
  children: z.array(symbolSchema),
  callers: z.array(neighbour).describe(
    `Call sites (caller and line of the call), at most ${MAX_NEIGHBOURS}`,
  ),
  callers_total: z.number().int(),
  callees: z.array(neighbour).describe(
    `Called symbols and where they are defined, at most ${MAX_NEIGHBOURS}`,
  ),
  callees_total: z.number().int(),
  unresolved_candidates: z.number().int(),
  references: z.number().int(),
  candidates: z.array(symbolSchema),
});

/** What `explain_symbol` answers. */
export type ExplainSymbolPayload = z.infer<typeof output>;
/** A caller or callee of it. */
export type Neighbour = z.infer<typeof neighbour>;
