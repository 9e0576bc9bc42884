/**
 * `semantic_search`'s wire shapes: its arguments and its payload.
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import { searchItemSchema, topKArg } from "../schemas.ts";

/** Its arguments. */
export const input = z.object({
  query: z.string().min(1).max(4096),
  top_k: topKArg.optional(),
  threshold: z.number().min(0).max(1).optional().describe("Min score, 0–1"),
  path_prefix: z.string().optional(),
  language: z.string().optional(),
  mode: z.enum(["hybrid", "lexical", "dense", "exact", "regex"]).optional().describe(
    "hybrid (default): by meaning; exact, regex (JavaScript): every match, smart case",
  ),
  scope: z.enum(["code", "docs", "tests", "all"]).optional().describe("default code"),
  include_tests: z.boolean().optional().describe("default false"),
});

/** Its payload. */
export const output = z.object({
  query: z.string(),
  snippets: z.array(searchItemSchema.extend({
    symbol_line: z.number().int().optional(),
    symbol_end_line: z.number().int().optional().describe(
      "The whole symbol's lines, when the hit is a part of it",
    ),
  })),
  index_state: z.string().describe("ready, indexing or empty"),
  mode: z.enum(["hybrid", "lexical", "dense", "exact", "regex"]).describe("The mode used"),
  capped: z.boolean().optional(),
  more_matches: z.array(z.string()).optional().describe("file:line of matches past top_k"),
  test_matches: z.number().int().optional(),
  vectors: z.object({
    embedder: z.string(),
    dimensions: z.number().int(),
    done: z.number().int(),
    total: z.number().int(),
    embedded: z.number().int().describe("Chunks embedded by the model in the last run"),
    state: z.string().describe("off, idle, embedding, complete or error"),
    error: z.string().optional(),
  }).describe("How far the vectors are; hybrid uses those present"),
});

/** What `semantic_search` answers. */
export type SemanticSearchPayload = z.infer<typeof output>;

/** Places of the matches past `top_k` a capped literal search names at most. */
export const MORE_PLACES = 25;

/** Test files' matches a literal search of code counts at most (`100+`). */
export const TEST_COUNT_CAP = 100;
