/**
 * `explain_symbol`'s wire shapes: its arguments and its payload.
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import { EXPLAIN_TOKENS, MAX_NEIGHBOURS } from "../../context/explain.ts";
import { filePathArg, resolutionSchema, symbolNameArg, symbolSchema } from "../schemas.ts";

const neighbour = z.object({
  name: z.string(),
  file: z.string(),
  line: z.number().int(),
  resolution: resolutionSchema,
  text: z.string().describe("A caller's line of code (within max_tokens)"),
});

const callLine = z.object({
  line: z.number().int(),
  text: z.string(),
  callee: z.string(),
  file: z.string().nullable().describe("The callee's; null outside the project"),
  def_line: z.number().int().nullable(),
  resolution: resolutionSchema,
  external: z.boolean(),
});

/** Its arguments. */
export const input = z.object({
  symbol_name: symbolNameArg,
  file_path: filePathArg.optional().describe("Only in this file or folder"),
  max_tokens: z.number().int().min(200).optional().describe(
    `default ${EXPLAIN_TOKENS}, min 200`,
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
  calls: z.array(callLine).optional().describe(
    "When the body is over max_tokens: its calls in order, within it (the text shows them)",
  ),
  outline_to: z.number().int().optional().describe(
    "The body's last line its outline reaches, when the rest is over max_tokens",
  ),
});

/** What `explain_symbol` answers. */
export type ExplainSymbolPayload = z.infer<typeof output>;
/** A caller or callee of it. */
export type Neighbour = z.infer<typeof neighbour>;
/** A call in its body. */
export type CallLine = z.infer<typeof callLine>;
