/**
 * `summarize_repo`: what a newcomer (or a model) needs first — size, languages, layout,
 * entry points, dependencies, central symbols — cached per index generation.
 */

import { summarizeRepo } from "../../context/summary.ts";
import { toWireSymbol } from "../schemas.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { command } from "./cli.ts";
import { input, output } from "./schema.ts";

/** The `summarize_repo` tool. */
export const summarizeRepoTool = defineTool({
  name: "summarize_repo",
  description: "Overview: size, languages, folders, entry points, dependencies, key symbols.",
  input,
  output,
  annotations: READ_ONLY,
  handler: async (_args, { project }) => {
    const s = await summarizeRepo(project);
    return {
      name: s.name,
      package: s.packageName,
      files: s.files,
      lines: s.lines,
      languages: s.languages,
      top_dirs: s.topDirs,
      entry_points: s.entryPoints,
      dependencies: s.dependencies,
      key_symbols: s.keySymbols.map(toWireSymbol),
      readme: s.readme,
      text: s.text,
      tokens: s.tokens,
      generation: s.generation,
    };
  },
  // The summary is already the Markdown a model reads.
  render: (p) => p.text,
  cli: command,
});
