/**
 * `get_call_graph`: callers and callees of a symbol, walked to a depth, resolved through
 * the same scopes and imports as `find_references`.
 */

import { callGraph, type CallNode } from "../../graph/calls.ts";
import { loadGraph } from "../../graph/graph.ts";
import { graphSymbolTable, resolveSymbol } from "../../graph/lookup.ts";
import { toMermaid } from "../../graph/mermaid.ts";
import { toWireSymbol } from "../schemas.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { command } from "./cli.ts";
import { render } from "./render.ts";
import { type CallGraphNode, input, output } from "./schema.ts";

function wireNode(n: CallNode): CallGraphNode {
  return {
    name: n.name,
    file: n.file,
    line: n.line,
    kind: n.kind,
    call_file: n.callFile,
    call_line: n.callLine,
    call_lines: n.callLines,
    depth: n.depth,
    resolved: n.resolved,
    resolution: n.resolution,
    external: n.external,
  };
}

/** The `get_call_graph` tool. */
export const getCallGraphTool = defineTool({
  name: "get_call_graph",
  description: "Callers (with each call line) and callees of a function, `depth` hops.",
  input,
  output,
  annotations: READ_ONLY,
  handler: async ({ symbol_name, depth, file_path, format, include_tests }, { project }) => {
    const file = file_path === undefined ? undefined : project.resolvePath(file_path);
    const graph = await loadGraph(project);
    const { symbol: root, candidates } = resolveSymbol(graphSymbolTable(graph), symbol_name, {
      file,
    });
    const g = callGraph(graph, root, depth ?? 1, { includeTests: include_tests });
    return {
      symbol: g.symbol.qualifiedName,
      definition: toWireSymbol(g.symbol),
      candidates: candidates.map(toWireSymbol),
      callers: g.callers.map(wireNode),
      callees: g.callees.map(wireNode),
      edges: g.edges,
      unresolved_candidates: g.unresolvedCandidates,
      ...(format === "mermaid"
        ? { mermaid: toMermaid(g.edges.filter((e) => !e.external), g.symbol.qualifiedName) }
        : {}),
    };
  },
  render,
  cli: command,
});
