/**
 * The search item: what every search answer is made of (`semantic_search`, `ask` sources,
 * the REST search), in wire (snake_case) shape. Search owns it; tools declare it in their
 * output schemas from here.
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";

/** A search result item on the wire: the code it points at, its score and its symbol. */
export const searchItemSchema = z.object({
  file: z.string(),
  line: z.number().int(),
  end_line: z.number().int(),
  score: z.number(),
  snippet: z.string(),
  language: z.string(),
  symbol: z.string().nullable(),
  kind: z.string().nullable(),
  /** Column (1-based) of the match, in `exact` and `regex` results. */
  column: z.number().int().optional(),
  /**
   * The file line of the snippet's first line, when it is not `line` (a snippet that opens
   * with the definition's doc comment, or a window inside a long body).
   */
  snippet_line: z.number().int().optional(),
});

/** A search result item. */
export type WireSearchItem = z.infer<typeof searchItemSchema>;
