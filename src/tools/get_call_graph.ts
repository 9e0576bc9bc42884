/**
 * `get_call_graph`: callers and callees of a symbol, walked to a depth, resolved through
 * the same scopes and imports as `find_references`.
 */

import { z } from "npm:zod@4.1.9";
import { callGraph, type CallNode } from "../graph/calls.ts";
import { loadGraph } from "../graph/graph.ts";
import { graphSymbolTable, resolveSymbol } from "../graph/lookup.ts";
import { toMermaid } from "../graph/mermaid.ts";
import { filePathArg, symbolNameArg, symbolSchema, toWireSymbol } from "./schemas.ts";
import { defineTool } from "./tool.ts";

const nodeSchema = z.object({
  name: z.string().describe(
    "Qualified name; a file path for top-level code; as written when unresolved",
  ),
  file: z.string().nullable(),
  line: z.number().int().nullable().describe("Line of the definition"),
  kind: z.string(),
  call_file: z.string(),
  call_line: z.number().int().describe("Line of the call that reached it"),
  depth: z.number().int(),
  resolved: z.boolean(),
});

function wireNode(n: CallNode): z.infer<typeof nodeSchema> {
  return {
    name: n.name,
    file: n.file,
    line: n.line,
    kind: n.kind,
    call_file: n.callFile,
    call_line: n.callLine,
    depth: n.depth,
    resolved: n.resolved,
  };
}

/** The `get_call_graph` tool. */
export const getCallGraphTool = defineTool({
  name: "get_call_graph",
  description:
    'Callers and callees of a function or method (name, file, definition line, call line), walked `depth` hops (1–5) without looping on cycles. Calls that cannot be resolved are callees with `resolved: false`. `format: "mermaid"` adds a Mermaid graph of the edges.',
  input: z.object({
    symbol_name: symbolNameArg,
    depth: z.number().int().min(1).max(5).optional().describe("How many hops (1–5, default 1)"),
    file_path: filePathArg.optional(),
    format: z.enum(["json", "mermaid"]).optional(),
  }),
  output: z.object({
    symbol: z.string(),
    definition: symbolSchema,
    candidates: z.array(symbolSchema),
    callers: z.array(nodeSchema),
    callees: z.array(nodeSchema),
    edges: z.array(z.object({
      from: z.string(),
      to: z.string(),
      file: z.string(),
      line: z.number().int(),
      resolved: z.boolean(),
    })),
    mermaid: z.string().optional(),
  }),
  handler: async ({ symbol_name, depth, file_path, format }, { project }) => {
    const file = file_path === undefined ? undefined : project.resolvePath(file_path);
    const graph = await loadGraph(project);
    const { symbol: root, candidates } = resolveSymbol(graphSymbolTable(graph), symbol_name, {
      file,
    });
    const g = callGraph(graph, root, depth ?? 1);
    return {
      symbol: root.qualifiedName,
      definition: toWireSymbol(root),
      candidates: candidates.map(toWireSymbol),
      callers: g.callers.map(wireNode),
      callees: g.callees.map(wireNode),
      edges: g.edges,
      ...(format === "mermaid" ? { mermaid: toMermaid(g.edges, root.qualifiedName) } : {}),
    };
  },
});
