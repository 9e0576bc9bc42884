/**
 * `codectx calls NAME [--depth N] [--file F] [--mermaid] [--json]`: callers and callees as
 * trees, or the Mermaid graph. A caller is a line with its call sites (`name file:l1, l2`), a
 * callee one with where it is defined and the line that calls it.
 *
 * @module
 */

import { otherSymbolsNote } from "../markdown.ts";
import type { CliOutput, ToolCommand } from "../tool.ts";
import { callSites, callTreeRows } from "./call_tree.ts";
import type { CallGraphNode, GetCallGraphPayload } from "./schema.ts";

/** The payload as `codectx calls` prints it (`--mermaid`: the graph alone). */
export function print(p: GetCallGraphPayload, values: Record<string, unknown>): CliOutput {
  if (values.mermaid) return { out: [String(p.mermaid)] };
  const def = p.definition;
  const out = [`${p.symbol} (${def.file}:${def.line})`];
  if (p.candidates.length) out.push(otherSymbolsNote(p.candidates));
  // A tree: a node two hops away hangs under the node that calls it (or that it calls).
  const root = def.qualified_name ?? p.symbol;
  const show = (title: string, nodes: CallGraphNode[], direction: "in" | "out") => {
    out.push(`${title}: ${nodes.length}`);
    for (const r of callTreeRows(root, nodes, p.edges, direction)) {
      const n = r.node;
      const pad = `  ${"  ".repeat(r.depth)}`;
      const recursive = r.recursive ? " (recursive)" : "";
      // A caller is where it calls (its call sites); a callee is where it is defined and the
      // line that calls it ("line N" in the explained symbol's file).
      if (direction === "in") {
        out.push(`${pad}${n.name} ${callSites(r)}${recursive}`);
        continue;
      }
      const where = n.file
        ? `${n.file}:${n.line}${n.resolution === "name" ? " (by name only)" : ""}`
        : n.external
        ? "external"
        : "unresolved";
      const at = r.edge.file === def.file ? `line ${r.lines.join(", ")}` : callSites(r);
      out.push(`${pad}${n.name} ${where} (${at})${recursive}`);
    }
  };
  show("callers", p.callers, "in");
  show("callees", p.callees, "out");
  return { out };
}

/** `codectx calls`. */
export const command: ToolCommand<GetCallGraphPayload> = {
  command: "calls",
  synopsis: "NAME  callers and callees (--depth N)",
  help: `Usage: codectx calls NAME [options]

Callers and callees of a function or method, walked up to --depth hops.

Options:
  --depth N         hops (1-5, default 1)
  --file F          the definition in file F
  --mermaid         print a Mermaid graph of the edges
`,
  positional: { arg: "symbol_name", missing: "calls needs a NAME, e.g. codectx calls main" },
  options: {
    depth: { type: "string", arg: "depth", int: {} },
    file: { type: "string", arg: "file_path" },
    mermaid: { type: "boolean", arg: "format", value: "mermaid" },
  },
  print,
};
