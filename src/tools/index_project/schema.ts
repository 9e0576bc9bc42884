/**
 * `index_project`'s wire shapes: its arguments and its payload.
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import type { IndexReport } from "../../index/indexer.ts";
import type { IndexState } from "../../project/project.ts";

/** What `index_project` answers (and `codectx index --json` prints): the run's report in
 * wire shape, and the index state after it. */
export type IndexPayload =
  & Omit<IndexReport, "elapsedMs" | "skippedFiles" | "walkSkips" | "peakMemoryMiB">
  & {
    /** Files in a known language left out, and why (the first `MAX_LISTED_SKIPS`). */
    skipped_files: Array<{ file: string; reason: string; detail?: string }>;
    /** Paths the walk left out, counted by reason. */
    walk_skips: Record<string, number>;
    /** Highest resident memory seen during the run, in MiB (absent when nothing ran). */
    peak_memory_mib?: number;
    elapsed_ms: number;
    state: IndexState;
  };

/** Its arguments. */
export const input = z.object({
  force: z.boolean().optional(),
});

/** Its payload. */
export const output: z.ZodType<IndexPayload> = z.object({
  files: z.number().int(),
  chunks: z.number().int(),
  symbols: z.number().int(),
  changed: z.number().int(),
  added: z.number().int(),
  modified: z.number().int(),
  deleted: z.number().int(),
  parsed: z.number().int(),
  skipped: z.number().int(),
  skipped_files: z.array(
    z.object({ file: z.string(), reason: z.string(), detail: z.string().optional() }),
  ),
  walk_skips: z.record(z.string(), z.number().int()),
  peak_memory_mib: z.number().int().optional(),
  languages: z.record(z.string(), z.number().int()),
  errors: z.array(z.object({ file: z.string(), error: z.string() })),
  generation: z.number().int(),
  elapsed_ms: z.number(),
  state: z.enum(["empty", "indexing", "ready"]),
});
