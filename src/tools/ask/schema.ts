/**
 * `ask`'s wire shapes: its arguments and its payload.
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import { DEFAULT_ASK_TOP_K } from "../../context/answer.ts";
import { searchItemSchema, topKArg } from "../schemas.ts";

/** Its arguments. */
export const input = z.object({
  question: z.string().min(1).max(4096),
  top_k: topKArg.optional().describe(`default ${DEFAULT_ASK_TOP_K}, max 100`),
});

/** Its payload. */
export const output = z.object({
  answer: z.string(),
  sources: z.array(searchItemSchema),
  mode: z.enum(["offline", "llm"]),
  model: z.string().optional(),
  warning: z.string().optional(),
});

/** What `ask` answers. */
export type AskPayload = z.infer<typeof output>;
