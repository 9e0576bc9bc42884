/**
 * Mermaid text of a call graph's edges (`graph LR`), for pages and chat clients that
 * draw Mermaid.
 *
 * @module
 */

/** An edge as Mermaid needs it. */
export interface MermaidEdge {
  from: string;
  to: string;
  resolved?: boolean;
}

/**
 * A Mermaid flowchart of the edges; `root` is highlighted, unresolved callees are
 * dashed.
 *
 * @example
 * ```ts
 * toMermaid([{ from: "main", to: "run" }], "main");
 * // graph LR\n  n0["main"]\n  n1["run"]\n  n0 --> n1\n  style n0 stroke-width:3px
 * ```
 */
export function toMermaid(edges: readonly MermaidEdge[], root?: string): string {
  const ids = new Map<string, string>();
  const unresolved = new Set<string>();
  const lines = ["graph LR"];
  const id = (name: string) => {
    let v = ids.get(name);
    if (!v) {
      v = `n${ids.size}`;
      ids.set(name, v);
      lines.push(`  ${v}["${escapeLabel(name)}"]`);
    }
    return v;
  };
  if (root !== undefined) id(root);
  const body: string[] = [];
  const seen = new Set<string>();
  for (const e of edges) {
    const a = id(e.from);
    const b = id(e.to);
    if (e.resolved === false) unresolved.add(b);
    const line = `  ${a} --> ${b}`;
    if (!seen.has(line)) {
      seen.add(line);
      body.push(line);
    }
  }
  lines.push(...body);
  if (root !== undefined) lines.push(`  style ${ids.get(root)} stroke-width:3px`);
  for (const u of unresolved) lines.push(`  style ${u} stroke-dasharray: 4 3`);
  return lines.join("\n");
}

function escapeLabel(s: string): string {
  return s.replace(/"/g, "#quot;").replace(/[<>]/g, (c) => (c === "<" ? "#lt;" : "#gt;"));
}
