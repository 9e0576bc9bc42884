/**
 * `index_project`: brings the index up to date (incremental unless `force`).
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import type { IndexReport } from "../index/indexer.ts";
import type { IndexState } from "../index/project.ts";
import { defineTool } from "./tool.ts";

/** What `index_project` answers (and `codectx index --json` prints): the run's report in
 * wire shape, and the index state after it. */
export type IndexPayload = Omit<IndexReport, "elapsedMs"> & {
  elapsed_ms: number;
  state: IndexState;
};

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
    "Index the project (incremental: only changed files are re-parsed; `force` re-parses all). Reports counts, per-language files and files that failed to parse.",
  input: z.object({
    force: z.boolean().optional().describe("Re-parse every file, even unchanged ones"),
  }),
  output,
  handler: async ({ force }, { project }) => {
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
      languages: r.languages,
      errors: r.errors,
      generation: r.generation,
      elapsed_ms: r.elapsedMs,
      state: await project.state(),
    };
  },
});
