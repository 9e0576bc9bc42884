/**
 * `find_references`: every reference to a symbol in code (not comments or strings), with
 * its kind, resolved through scopes and imports.
 */

import { loadGraph } from "../../graph/graph.ts";
import { findReferences } from "../../graph/references.ts";
import { toWireSymbol } from "../schemas.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { command } from "./cli.ts";
import { render } from "./render.ts";
import { input, output } from "./schema.ts";

/** The `find_references` tool. */
export const findReferencesTool = defineTool({
  name: "find_references",
  description:
    "Every reference to a symbol in code (not comments): its kind (definition, call, import, type, inherit, read, write, export_list) and `resolution` (exact, inferred, name), through scopes and imports: a shadowing local is none, an alias is. `file_path` narrows a shared name.",
  input,
  output,
  annotations: READ_ONLY,
  handler: async ({ symbol_name, file_path, limit, include_tests }, { project }) => {
    const file = file_path === undefined ? undefined : project.resolvePath(file_path);
    const graph = await loadGraph(project);
    const r = findReferences(graph, symbol_name, { file, limit, includeTests: include_tests });
    return {
      symbol: r.definitions[0].qualifiedName,
      definitions: r.definitions.map(toWireSymbol),
      references: r.references,
      total: r.total,
      truncated: r.truncated,
      by_resolution: r.byResolution,
    };
  },
  render,
  cli: command,
});
