/**
 * `summarize_repo`'s wire shapes: its arguments (none) and its payload.
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import { symbolSchema } from "../schemas.ts";

/** Its arguments: none. */
export const input = z.object({});

/** Its payload. */
export const output = z.object({
  name: z.string().describe("The project folder's name"),
  package: z.string().nullable().describe("The name the root manifest declares, if any"),
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
    z.object({
      path: z.string(),
      files: z.number().int(),
      lines: z.number().int(),
      description: z.string(),
    }),
  ),
  entry_points: z.array(z.object({ file: z.string(), kind: z.string() })),
  dependencies: z.array(
    z.object({
      name: z.string(),
      version: z.string(),
      scope: z.string(),
      manifest: z.string(),
    }),
  ),
  key_symbols: z.array(symbolSchema),
  readme: z.string(),
  text: z.string(),
  tokens: z.number().int(),
  generation: z.number().int(),
});

/** What `summarize_repo` answers. */
export type SummarizeRepoPayload = z.infer<typeof output>;
