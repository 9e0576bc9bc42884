/**
 * `summarize_repo`: what a newcomer (or a model) needs first — size, languages, layout,
 * entry points, dependencies, central symbols — cached per index generation.
 */

import { z } from "npm:zod@4.1.9";
import { summarizeRepo, SUMMARY_TOKENS } from "../context/summary.ts";
import { symbolSchema, toWireSymbol } from "./schemas.ts";
import { defineTool } from "./tool.ts";

/** The `summarize_repo` tool. */
export const summarizeRepoTool = defineTool({
  name: "summarize_repo",
  description:
    `Summarize the repository: file and line counts, languages, top-level folders and what they hold, entry points, dependencies from manifests (package.json, deno.json, pyproject.toml, requirements.txt, go.mod, Cargo.toml, pom.xml, build.gradle), the most central symbols (PageRank over references), the README's first paragraph, and a Markdown text of it all (at most ${SUMMARY_TOKENS} tokens).`,
  input: z.object({}),
  output: z.object({
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
  }),
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
});
