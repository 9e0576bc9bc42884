/**
 * `get_context`'s wire shapes: its arguments and its payload.
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import { DEFAULT_MAX_TOKENS, MAX_TOKENS_LIMIT } from "../../context/window.ts";
import { filePathArg, symbolNameArg } from "../schemas.ts";

export { MAX_TOKENS_LIMIT };

/** Its arguments. */
export const input = z.object({
  symbol_name: symbolNameArg,
  file_path: filePathArg.optional().describe("Only in this file or folder"),
  max_tokens: z.number().int().min(1).max(MAX_TOKENS_LIMIT).optional().describe(
    `default ${DEFAULT_MAX_TOKENS}, max ${MAX_TOKENS_LIMIT}`,
  ),
});

/** Its payload. */
export const output = z.object({
  symbol: z.string(),
  file: z.string(),
  line: z.number().int(),
  text: z.string(),
  tokens: z.number().int(),
  max_tokens: z.number().int(),
  sources: z.array(
    z.object({
      file: z.string(),
      line: z.number().int(),
      end_line: z.number().int(),
      reason: z.string(),
    }),
  ),
  truncated: z.boolean(),
  candidates: z.array(z.string()).describe("Other symbols the name could mean (file:line name)"),
});

/** What `get_context` answers. */
export type GetContextPayload = z.infer<typeof output>;
