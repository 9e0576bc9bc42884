/**
 * `codectx summary [--json]`: the repository at a glance, as the tool's text.
 *
 * @module
 */

import type { ToolCommand } from "../tool.ts";
import type { SummarizeRepoPayload } from "./schema.ts";

/** `codectx summary`. */
export const command: ToolCommand<SummarizeRepoPayload> = {
  command: "summary",
  synopsis: "  the repository in ~1,500 tokens",
  help: `Usage: codectx summary [options]

The repository at a glance: size, languages, layout, entry points, dependencies and the
most central symbols.

Options:
`,
  options: {},
  print: (p) => ({ out: [p.text] }),
};
