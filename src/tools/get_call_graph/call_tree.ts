/**
 * Callers or callees of `get_call_graph`'s payload in tree order: the MCP text and
 * `codectx calls` both print this order.
 *
 * @module
 */

import type { CallGraphEdge, CallGraphNode } from "./schema.ts";

/** One line of a call tree: a node, the edge that reaches it, and how deep it hangs. */
export interface CallTreeRow {
  node: CallGraphNode;
  /** The edge from the node above (its `file` and `line` are the call site). */
  edge: CallGraphEdge;
  /** The node's name as the edge reaches it. */
  target: string;
  depth: number;
}

/**
 * Callers (`in`) or callees (`out`) in tree order, following `edges` from the root: each
 * node once, under the first node that reaches it, depth 0 the root's own callers or callees.
 */
export function callTreeRows(
  root: string,
  nodes: CallGraphNode[],
  edges: CallGraphEdge[],
  direction: "in" | "out",
): CallTreeRow[] {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const next = new Map<string, Array<{ edge: CallGraphEdge; target: string }>>();
  for (const e of edges) {
    const [from, to] = direction === "out" ? [e.from, e.to] : [e.to, e.from];
    if (from !== to) next.set(from, [...(next.get(from) ?? []), { edge: e, target: to }]);
  }
  const rows: CallTreeRow[] = [];
  const seen = new Set([root]);
  const walk = (name: string, depth: number) => {
    for (const { edge, target } of next.get(name) ?? []) {
      const node = byName.get(target);
      if (!node || seen.has(target)) continue;
      seen.add(target);
      rows.push({ node, edge, target, depth });
      walk(target, depth + 1);
    }
  };
  walk(root, 0);
  return rows;
}
