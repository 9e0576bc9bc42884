/**
 * `codectx summary [--json]`: the repository at a glance, as the tool's text (`src/cli/summary.ts`
 * runs it, and with a file's path that file's outline).
 *
 * @module
 */

import type { ToolCommand } from "../tool.ts";
import type { SummarizeRepoPayload } from "./schema.ts";

/** `codectx summary`. */
export const command: ToolCommand<SummarizeRepoPayload> = {
  command: "summary",
  synopsis: "  the repository in ~1,500 tokens",
  help: `Usage: codectx summary [FILE] [options]

The repository at a glance: size, languages, layout, entry points, dependencies and the
most central symbols. With FILE, that file's outline, imports and importers (as explain
FILE); a folder has no summary of its own.

Options:
`,
  options: {},
  print: (p) => ({ out: [p.text] }),
};
