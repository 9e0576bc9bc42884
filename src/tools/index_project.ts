/**
 * `index_project`: brings the index up to date (incremental unless `force`).
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import type { IndexReport } from "../index/indexer.ts";
import type { IndexState } from "../project/project.ts";
import { defineTool } from "./tool.ts";

/** What `index_project` answers (and `codectx index --json` prints): the run's report in
 * wire shape, and the index state after it. */
export type IndexPayload =
  & Omit<IndexReport, "elapsedMs" | "skippedFiles" | "walkSkips" | "peakMemoryMiB">
  & {
    /** Files in a known language left out, and why (the first {@link MAX_LISTED_SKIPS}). */
    skipped_files: Array<{ file: string; reason: string; detail?: string }>;
    /** Paths the walk left out, counted by reason. */
    walk_skips: Record<string, number>;
    /** Highest resident memory seen during the run, in MiB (absent when nothing ran). */
    peak_memory_mib?: number;
    elapsed_ms: number;
    state: IndexState;
  };

/** How many skipped files the payload names (`skipped` counts them all). */
export const MAX_LISTED_SKIPS = 100;

const output: z.ZodType<IndexPayload> = z.object({
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

/** The `index_project` tool. */
export const indexProjectTool = defineTool({
  name: "index_project",
  description:
    "Index the project (incremental: only changed files are re-parsed; `force` re-parses all). Reports counts, per-language files, files that failed to parse and files skipped with their reason.",
  input: z.object({
    force: z.boolean().optional().describe("Re-parse every file, even unchanged ones"),
  }),
  output,
  handler: async ({ force }, { project }) => {
    // A large generation's lexical index is built by the run itself (the service's hook).
    const r = await project.reindex({ force: force ?? false });
    return {
      files: r.files,
      chunks: r.chunks,
      symbols: r.symbols,
      changed: r.changed,
      added: r.added,
      modified: r.modified,
      deleted: r.deleted,
      parsed: r.parsed,
      skipped: r.skipped,
      skipped_files: (r.skippedFiles ?? []).slice(0, MAX_LISTED_SKIPS),
      walk_skips: { ...r.walkSkips } as Record<string, number>,
      ...(r.peakMemoryMiB !== undefined ? { peak_memory_mib: r.peakMemoryMiB } : {}),
      languages: r.languages,
      errors: r.errors,
      generation: r.generation,
      elapsed_ms: r.elapsedMs,
      state: await project.state(),
    };
  },
});
