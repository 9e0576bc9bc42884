/**
 * `explain_file`: the outline of one file — language, size, symbols, imports.
 */

import { z } from "npm:zod@4.1.9";
import { CodectxError } from "../errors.ts";
import { fileDependencies } from "../graph/deps.ts";
import { loadGraph } from "../graph/graph.ts";
import { fileNotInIndex } from "../util/suggest.ts";
import { filePathArg, symbolSchema, toWireSymbol } from "./schemas.ts";
import { defineTool } from "./tool.ts";

/** The `explain_file` tool. */
export const explainFileTool = defineTool({
  name: "explain_file",
  description:
    "Outline of one file: language, line count, every symbol defined in it (name, kind, lines, signature, doc, parent), its imports (resolved to project files or marked external) and the files that import it.",
  input: z.object({ file_path: filePathArg }),
  output: z.object({
    file: z.string(),
    language: z.string(),
    lines: z.number().int(),
    size: z.number().int(),
    symbols: z.array(symbolSchema),
    imports: z.array(z.object({
      module: z.string(),
      resolved: z.string().nullable(),
      external: z.boolean(),
      package: z.string().nullable(),
      line: z.number().int(),
      names: z.array(z.string()),
    })),
    imported_by: z.array(z.string()),
    parse_error: z.string().nullable(),
  }),
  handler: async ({ file_path }, { project }) => {
    const rel = project.resolvePath(file_path);
    const index = await project.index();
    const entry = index.files.get(rel);
    if (!entry) throw fileNotInIndex(rel, index.files.keys());
    if (entry.skipped) {
      throw new CodectxError("not_found", `file '${rel}' is not indexed: it is ${entry.skipped}`);
    }
    const graph = await loadGraph(project);
    const graphFile = graph.byPath.get(rel);
    const deps = graphFile ? fileDependencies(graph, graphFile) : null;
    return {
      file: rel,
      language: entry.language,
      lines: entry.lines,
      size: entry.size,
      symbols: (index.symbolsByFile.get(rel) ?? []).map(toWireSymbol),
      imports: deps?.imports ?? [],
      imported_by: deps?.importedBy ?? [],
      parse_error: entry.error ?? null,
    };
  },
});
