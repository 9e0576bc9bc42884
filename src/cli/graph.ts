/**
 * CLI commands of the code graph, each a thin printer over its tool (run through the
 * executor, like every surface):
 * - `codectx refs NAME [--file F] [--limit N] [--json]`
 * - `codectx deps [FILE] [--json]`
 * - `codectx calls NAME [--depth N] [--file F] [--mermaid] [--json]`
 *
 * @module
 */

import { callTreeRows } from "../mcp/render_graph.ts";
import { intOption, parse, runTool, TOOL_COMMAND_HELP, UsageError } from "./args.ts";
import { otherSymbolsNote } from "./context.ts";

const REFS_HELP = `Usage: codectx refs NAME [options]

Every reference to a symbol (definitions, calls, imports, types, inheritance, reads,
writes), resolved through scopes and imports. NAME may be qualified (Session.request).

Options:
  --file F          only the definition in file F (for a name defined in several files)
  --limit N         most references printed (default 200)
${TOOL_COMMAND_HELP}
`;

const DEPS_HELP = `Usage: codectx deps [FILE] [options]

The imports of FILE (each resolved to a project file or marked external) and the files
that import it; without FILE, the project's dependency graph: external packages by use
and import cycles.

Options:
${TOOL_COMMAND_HELP}
`;

const CALLS_HELP = `Usage: codectx calls NAME [options]

Callers and callees of a function or method, walked up to --depth hops.

Options:
  --depth N         hops (1-5, default 1)
  --file F          the definition in file F
  --mermaid         print a Mermaid graph of the edges
${TOOL_COMMAND_HELP}
`;

type Payload = Record<string, unknown>;

function list(v: unknown): Payload[] {
  return Array.isArray(v) ? v as Payload[] : [];
}

/** `codectx refs NAME`. */
export async function cmdRefs(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    file: { type: "string" },
    limit: { type: "string" },
    json: { type: "boolean" },
  }, 1);
  if (values.help) {
    console.log(REFS_HELP);
    return 0;
  }
  const name = positionals[0];
  if (!name) throw new UsageError("refs needs a NAME, e.g. codectx refs parse_config");
  const { payload, code } = await runTool(values, "find_references", {
    symbol_name: name,
    ...(values.file ? { file_path: values.file } : {}),
    ...(values.limit !== undefined ? { limit: intOption(values.limit, "--limit") } : {}),
  });
  if (code !== 0) return code;
  if (values.json) {
    console.log(JSON.stringify(payload, null, 2));
    return 0;
  }
  const refs = list(payload.references);
  for (const r of refs) {
    console.log(`${r.file}:${r.line}:${r.column}  ${String(r.kind).padEnd(10)}  ${r.context}`);
  }
  const defs = list(payload.definitions).map((d) => `${d.qualified_name} (${d.file}:${d.line})`);
  console.log(
    `${payload.total} reference${payload.total === 1 ? "" : "s"} to ${defs.join(", ")}` +
      (payload.truncated ? ` (first ${refs.length} shown; --limit N for more)` : ""),
  );
  return 0;
}

/** `codectx deps [FILE]`. */
export async function cmdDeps(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { json: { type: "boolean" } }, 1);
  if (values.help) {
    console.log(DEPS_HELP);
    return 0;
  }
  const file = positionals[0];
  const { payload, code } = await runTool(
    values,
    "get_dependencies",
    file ? { file_path: file } : {},
  );
  if (code !== 0) return code;
  if (values.json) {
    console.log(JSON.stringify(payload, null, 2));
    return 0;
  }
  if (file) {
    console.log(`${payload.file} (${payload.language})`);
    for (const i of list(payload.imports)) {
      const to = i.resolved
        ? [i.resolved, ...list(i.also)].join(", ")
        : i.external
        ? `external ${i.package ?? ""}`.trim()
        : "unresolved";
      const names = list(i.names).length ? `  [${(i.names as string[]).join(", ")}]` : "";
      console.log(`  ${String(i.line).padStart(4)}  ${i.module} -> ${to}${names}`);
    }
    const by = (payload.imported_by as string[] | undefined) ?? [];
    console.log(`imported by ${by.length} file${by.length === 1 ? "" : "s"}`);
    for (const f of by) console.log(`  ${f}`);
    return 0;
  }
  const nodes = list(payload.nodes);
  const edges = list(payload.edges);
  const external = list(payload.external);
  const cycles = (payload.cycles as string[][] | undefined) ?? [];
  console.log(
    `${nodes.length} files, ${edges.length} internal imports, ${external.length} external packages, ${payload.unresolved} unresolved`,
  );
  if (external.length) {
    console.log("external packages (imports, files):");
    for (const e of external.slice(0, 20)) console.log(`  ${e.package}  ${e.count}, ${e.files}`);
    if (external.length > 20) console.log(`  … ${external.length - 20} more (--json for all)`);
  }
  console.log(`${cycles.length} import cycle${cycles.length === 1 ? "" : "s"}`);
  for (const c of cycles.slice(0, 10)) console.log(`  ${c.join(" -> ")}`);
  return 0;
}

/** `codectx calls NAME`. */
export async function cmdCalls(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    depth: { type: "string" },
    file: { type: "string" },
    mermaid: { type: "boolean" },
    json: { type: "boolean" },
  }, 1);
  if (values.help) {
    console.log(CALLS_HELP);
    return 0;
  }
  const name = positionals[0];
  if (!name) throw new UsageError("calls needs a NAME, e.g. codectx calls main");
  const { payload, code } = await runTool(values, "get_call_graph", {
    symbol_name: name,
    ...(values.depth !== undefined ? { depth: intOption(values.depth, "--depth") } : {}),
    ...(values.file ? { file_path: values.file } : {}),
    ...(values.mermaid ? { format: "mermaid" } : {}),
  });
  if (code !== 0) return code;
  if (values.json) {
    console.log(JSON.stringify(payload, null, 2));
    return 0;
  }
  if (values.mermaid) {
    console.log(payload.mermaid);
    return 0;
  }
  const def = payload.definition as Payload;
  console.log(`${payload.symbol} (${def.file}:${def.line})`);
  const others = list(payload.candidates) as Array<{ file: string; line: number }>;
  if (others.length) console.log(otherSymbolsNote(others));
  // A tree: a node two hops away hangs under the node that calls it (or that it calls).
  const root = String(def.qualified_name ?? payload.symbol);
  const edges = list(payload.edges);
  const show = (title: string, nodes: Payload[], direction: "in" | "out") => {
    console.log(`${title}: ${nodes.length}`);
    for (const { node: n, edge: e, depth } of callTreeRows(root, nodes, edges, direction)) {
      const where = n.file
        ? `${n.file}:${n.line}${n.resolution === "name" ? " (by name only)" : ""}`
        : n.external
        ? "external"
        : "unresolved";
      console.log(`  ${"  ".repeat(depth)}${n.name}  ${where}  (call at ${e.file}:${e.line})`);
    }
  };
  show("callers", list(payload.callers), "in");
  show("callees", list(payload.callees), "out");
  return 0;
}
