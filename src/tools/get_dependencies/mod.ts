/**
 * `get_dependencies`: imports of a file (resolved to project files or marked external)
 * and the files that import it; the whole graph when no file is given.
 */

import { CodectxError } from "../../errors.ts";
import { fileDependencies, fileImporters, packageImporters, wholeGraph } from "../../graph/deps.ts";
import { loadGraph } from "../../graph/graph.ts";
import { fileNotInIndex } from "../../util/suggest.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { command } from "./cli.ts";
import { render } from "./render.ts";
import { input, output } from "./schema.ts";

/** The `get_dependencies` tool. */
export const getDependenciesTool = defineTool({
  name: "get_dependencies",
  description:
    "A file's imports and importers; `package`: every file and line importing it; neither: the whole graph.",
  input,
  output,
  annotations: READ_ONLY,
  handler: async ({ file_path, package: wanted }, { project }) => {
    if (wanted !== undefined && file_path !== undefined) {
      throw new CodectxError(
        "invalid_argument",
        "package: give package or file_path, not both (package: who imports it; file_path: what a file imports)",
      );
    }
    const rel = file_path === undefined ? undefined : project.resolvePath(file_path);
    const graph = await loadGraph(project);
    if (wanted !== undefined) {
      const importers = packageImporters(graph, wanted);
      return {
        file: null,
        imports: [],
        imported_by: [...new Set(importers.map((i) => i.file))],
        importers,
      };
    }
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
    return {
      file: d.file,
      language: d.language,
      imports: d.imports,
      imported_by: d.importedBy,
      // Where each importer imports it: `deps FILE` gave the files alone (another search for
      // file:line).
      importers: fileImporters(graph, d.file),
    };
  },
  render,
  cli: command,
});
