/**
 * Callers or callees of `get_call_graph`'s payload in tree order: the MCP text and
 * `codectx calls` both print this order.
 *
 * @module
 */

import type { CallGraphEdge, CallGraphNode } from "./schema.ts";

/** One line of a call tree: a node, the calls that reach it, and how deep it hangs. */
export interface CallTreeRow {
  node: CallGraphNode;
  /** The first call from (or to) the node above; its `file` is where every call below is. */
  edge: CallGraphEdge;
  /** Every line of a call between the node above and this one, in `edge.file`. */
  lines: number[];
  /** The node's name as the edge reaches it. */
  target: string;
  depth: number;
  /** The root itself: it calls itself (recursion). */
  recursive: boolean;
}

/**
 * Callers (`in`) or callees (`out`) in tree order, following `edges` from the root: first the
 * root itself when it calls itself, then each node once, under the first node of the depth
 * above that reaches it, depth 0 the root's own callers or callees. Each row carries every
 * call line between it and the node above, so a caller that calls twice shows both.
 */
export function callTreeRows(
  root: string,
  nodes: CallGraphNode[],
  edges: CallGraphEdge[],
  direction: "in" | "out",
): CallTreeRow[] {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const next = new Map<string, Map<string, CallGraphEdge[]>>();
  for (const e of edges) {
    const [from, to] = direction === "out" ? [e.from, e.to] : [e.to, e.from];
    const targets = next.get(from) ?? new Map<string, CallGraphEdge[]>();
    next.set(from, targets);
    targets.set(to, [...(targets.get(to) ?? []), e]);
  }
  const rows: CallTreeRow[] = [];
  const row = (target: string, calls: CallGraphEdge[], depth: number, recursive: boolean) => {
    const node = byName.get(target);
    if (!node) return false;
    const lines = [...new Set(calls.filter((e) => e.file === calls[0].file).map((e) => e.line))];
    rows.push({ node, edge: calls[0], lines, target, depth, recursive });
    return true;
  };
  const self = next.get(root)?.get(root);
  if (self) row(root, self, 0, true);
  const seen = new Set([root]);
  const walk = (name: string, depth: number) => {
    for (const [target, calls] of next.get(name) ?? []) {
      // A node hangs at the depth the walk found it first (a direct caller stays at depth 0
      // even when another caller calls it too).
      if (seen.has(target) || byName.get(target)?.depth !== depth + 1) continue;
      if (!row(target, calls, depth, false)) continue;
      seen.add(target);
      walk(target, depth + 1);
    }
  };
  walk(root, 0);
  return rows;
}

/** `file:4` or `file:4, 9`: the lines of a row's calls. */
export function callSites(r: CallTreeRow): string {
  return `${r.edge.file}:${r.lines.join(", ")}`;
}
