/**
 * `search_symbols`' wire shapes: its arguments and its payload.
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import { SYMBOL_KINDS } from "../../types.ts";
import { symbolSchema } from "../schemas.ts";

/** Its arguments. */
export const input = z.object({
  query: z.string().max(512).optional().describe(
    "Name or part (`p_c`); absent: all, in file order",
  ),
  kind: z.enum(SYMBOL_KINDS).optional(),
  limit: z.number().int().min(1).max(500).optional().describe("default 20, max 500"),
  offset: z.number().int().min(0).optional(),
  path_prefix: z.string().optional(),
});

/** Its payload. */
export const output = z.object({
  symbols: z.array(symbolSchema.extend({ score: z.number() })),
  total: z.number().int(),
});

/** What `search_symbols` answers. */
export type SearchSymbolsPayload = z.infer<typeof output>;
