/**
 * `get_dependencies`: imports of a file (resolved to project files or marked external)
 * and the files that import it; the whole graph when no file is given.
 */

import { z } from "npm:zod@4.1.9";
import { fileDependencies, wholeGraph } from "../graph/deps.ts";
import { loadGraph } from "../graph/graph.ts";
import { fileNotInIndex } from "../util/suggest.ts";
import { filePathArg } from "./schemas.ts";
import { defineTool } from "./tool.ts";

const importSchema = z.object({
  module: z.string().describe("As written"),
  resolved: z.string().nullable().describe("Project-relative file or package folder"),
  external: z.boolean(),
  package: z.string().nullable().describe("The external package, when external"),
  line: z.number().int(),
  names: z.array(z.string()),
  also: z.array(z.string()).optional().describe(
    "The other project files the statement imports (`from . import a, b`)",
  ),
});

/** The `get_dependencies` tool. */
export const getDependenciesTool = defineTool({
  name: "get_dependencies",
  description:
    "Imports of a file (resolved to project files or marked external, with the package name) and the files that import it; with no file, the whole graph: nodes, edges, external packages with use counts, and import cycles.",
  input: z.object({
    file_path: filePathArg.optional(),
  }),
  output: z.object({
    file: z.string().nullable(),
    language: z.string().optional(),
    imports: z.array(importSchema),
    imported_by: z.array(z.string()),
    nodes: z.array(z.object({
      file: z.string(),
      language: z.string(),
      imports: z.number().int(),
      imported_by: z.number().int(),
    })).optional(),
    edges: z.array(z.object({ from: z.string(), to: z.string(), line: z.number().int() }))
      .optional(),
    external: z.array(z.object({
      package: z.string(),
      count: z.number().int(),
      files: z.number().int(),
    })).optional(),
    cycles: z.array(z.array(z.string())).optional(),
    unresolved: z.number().int().optional(),
  }),
  handler: async ({ file_path }, { project }) => {
    const rel = file_path === undefined ? undefined : project.resolvePath(file_path);
    const graph = await loadGraph(project);
    if (rel === undefined) {
      const g = wholeGraph(graph);
      return {
        file: null,
        imports: [],
        imported_by: [],
        nodes: g.nodes.map((n) => ({
          file: n.file,
          language: n.language,
          imports: n.imports,
          imported_by: n.importedBy,
        })),
        edges: g.edges,
        external: g.external,
        cycles: g.cycles,
        unresolved: g.unresolved,
      };
    }
    const file = graph.byPath.get(rel);
    if (!file) throw fileNotInIndex(rel, graph.byPath.keys());
    const d = fileDependencies(graph, file);
    return { file: d.file, language: d.language, imports: d.imports, imported_by: d.importedBy };
  },
});
