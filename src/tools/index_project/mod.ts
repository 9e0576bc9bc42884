/**
 * `index_project`: brings the index up to date (incremental unless `force`).
 *
 * @module
 */

import { defineTool } from "../tool.ts";
import { render } from "./render.ts";
import { input, output } from "./schema.ts";

export type { IndexPayload } from "./schema.ts";

/** How many skipped files the payload names (`skipped` counts them all). */
export const MAX_LISTED_SKIPS = 100;

/** The `index_project` tool. */
export const indexProjectTool = defineTool({
  name: "index_project",
  description: "Update the index (incremental): counts, failures, skips.",
  input,
  output,
  annotations: {
    // It writes the index (outside the project, see `store/home.ts`), never the project; a
    // second run with nothing changed changes nothing.
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
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
  render,
});
