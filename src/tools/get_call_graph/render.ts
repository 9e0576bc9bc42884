/**
 * `get_call_graph` as Markdown: callers and callees as indented trees.
 *
 * @module
 */

import { fence, join, listOf, loc, sureness, symbolLine } from "../markdown.ts";
import { callTreeRows } from "./call_tree.ts";
import type { CallGraphEdge, CallGraphNode, GetCallGraphPayload } from "./schema.ts";

/** Callers or callees as an indented tree, following `edges` from the root. */
function callTree(
  root: string,
  nodes: CallGraphNode[],
  edges: CallGraphEdge[],
  direction: "in" | "out",
): string {
  return callTreeRows(root, nodes, edges, direction).map(({ node: n, edge: e, target, depth }) => {
    const where = n.file ? ` ${n.file}:${n.line ?? 0}` : "";
    const kind = n.resolved === false && !n.resolution
      ? " (unresolved)"
      : n.kind
      ? ` (${n.kind}${n.external ? "" : sureness(n)})` // a library's: nothing to guess
      : "";
    return `${"  ".repeat(depth)}- ${target}${kind}${where} ← call at ${loc(e)}`;
  }).join("\n");
}

/** The definition, its callers and callees as trees, and a Mermaid graph when asked. */
export function render(p: GetCallGraphPayload): string {
  const def = p.definition;
  const root = def.qualified_name || def.name;
  const callers = callTree(root, p.callers, p.edges, "in");
  const callees = callTree(root, p.callees, p.edges, "out");
  return join([
    `# ${root} (${def.kind}) ${loc(def)}`,
    `Callers:\n${callers || "- none found"}`,
    `Callees:\n${callees || "- none found"}`,
    p.unresolved_candidates
      ? `${p.unresolved_candidates} more calls of this name through a receiver of unknown type may call it (unresolved candidates).`
      : "",
    p.mermaid ? fence(p.mermaid, "mermaid") : "",
    listOf("Other symbols with this name", p.candidates, symbolLine),
  ]);
}
