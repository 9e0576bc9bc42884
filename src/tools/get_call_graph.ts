/**
 * `get_call_graph`: callers and callees of a symbol, walked to a depth, resolved through
 * the same scopes and imports as `find_references`.
 */

import { z } from "npm:zod@4.1.9";
import { callGraph, type CallNode } from "../graph/calls.ts";
import { loadGraph } from "../graph/graph.ts";
import { graphSymbolTable, resolveSymbol } from "../graph/lookup.ts";
import { toMermaid } from "../graph/mermaid.ts";
import {
  filePathArg,
  includeTestsArg,
  resolutionSchema,
  symbolNameArg,
  symbolSchema,
  toWireSymbol,
} from "./schemas.ts";
import { defineTool } from "./tool.ts";

const nodeSchema = z.object({
  name: z.string().describe(
    "Qualified name; a file path for top-level code; as written when unresolved",
  ),
  file: z.string().nullable().describe("null for builtins and library calls"),
  line: z.number().int().nullable().describe("Line of the definition"),
  kind: z.string().describe(
    "The symbol's kind; `file` for top-level code; `builtin`, `external` (library) or `unknown` (receiver of unknown type) for calls that reach no project symbol",
  ),
  call_file: z.string(),
  call_line: z.number().int().describe("Line of the call that reached it"),
  depth: z.number().int(),
  resolved: z.boolean().describe("True for exact and inferred calls of project symbols"),
  resolution: resolutionSchema,
  external: z.boolean().describe("A builtin or a library call, not a project node"),
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
    resolution: n.resolution,
    external: n.external,
  };
}

/** The `get_call_graph` tool. */
export const getCallGraphTool = defineTool({
  name: "get_call_graph",
  description:
    'Callers and callees of a function or method, walked `depth` hops (1–5) without looping on cycles. Each node and edge has a `resolution` (exact, inferred, or name: matched by name only, not walked further). Builtins and library calls are `external` callees. `format: "mermaid"` adds a Mermaid graph.',
  input: z.object({
    symbol_name: symbolNameArg,
    depth: z.number().int().min(1).max(5).optional().describe("How many hops (1–5, default 1)"),
    file_path: filePathArg.optional(),
    format: z.enum(["json", "mermaid"]).optional(),
    include_tests: includeTestsArg,
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
      resolution: resolutionSchema,
      external: z.boolean(),
    })),
    unresolved_candidates: z.number().int().describe(
      "Calls of this name on receivers of unknown type (may call it)",
    ),
    mermaid: z.string().optional(),
  }),
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
});
