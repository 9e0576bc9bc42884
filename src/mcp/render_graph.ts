/**
 * MCP texts of the tools about symbols, files and the code graph: explain_symbol,
 * explain_file, find_references, get_dependencies, get_call_graph and get_context.
 *
 * @module
 */

import { CALLABLE_KINDS } from "../types.ts";
import {
  fence,
  firstLine,
  isObj,
  join,
  listOf,
  loc,
  num,
  type Obj,
  objs,
  str,
  symbolLine,
} from "./markdown.ts";

/** explain_symbol: the definition, its source (doc once), members, callers and callees. */
export function explainSymbol(p: Obj): string {
  const s = isObj(p.symbol) ? p.symbol : undefined;
  const candidates = objs(p.candidates);
  if (!s) return listOf("Several symbols match; pass file_path", candidates, symbolLine);
  const parent = isObj(p.parent)
    ? `${str(p.parent.qualified_name) || str(p.parent.name)} (${str(p.parent.kind)}) ${
      loc(p.parent, "line", "_")
    }`
    : str(p.parent);
  // The doc once: a docstring inside the source is not repeated above it.
  const doc = str(p.doc).trim();
  const docInSource = doc !== "" && str(p.source).includes(doc.split("\n")[0].trim());
  return join([
    `# ${str(s.qualified_name) || str(s.name)} — ${str(s.kind)} in ${loc(s)}`,
    parent ? `In ${parent}.` : "",
    docInSource ? "" : doc,
    fence(p.source, s.language) + (p.source_truncated ? "\n(source truncated)" : ""),
    listOf(
      "Members",
      objs(p.children),
      (c) => `${str(c.signature) || str(c.name)} :${num(c.line)}`,
    ),
    sites(
      CALLABLE_KINDS.has(str(s.kind)) ? "Callers" : "Used by",
      objs(p.callers),
      num(p.callers_total),
    ),
    sites("Callees", objs(p.callees), num(p.callees_total)),
    typeof p.references === "number" ? `References: ${p.references}` : "",
    listOf("Other symbols with this name", candidates, symbolLine),
  ]);
}

/**
 * Call sites grouped by who and where: `name file:l1, l2` one line per (name, file), in the
 * payload's order; how sure the match is goes in the title when every site shares it.
 */
function sites(title: string, items: Obj[], total: number): string {
  if (items.length === 0) return "";
  const groups = new Map<string, { o: Obj; lines: number[] }>();
  for (const o of items) {
    const key = `${str(o.name)}\0${str(o.file)}\0${str(o.resolution)}`;
    const g = groups.get(key);
    if (g) g.lines.push(num(o.line));
    else groups.set(key, { o, lines: typeof o.line === "number" ? [o.line] : [] });
  }
  const shared = items.every((o) => o.resolution === items[0].resolution)
    ? sureness(items[0])
    : undefined;
  const more = total > items.length ? `${items.length} of ${total}` : "";
  const head = [more, shared?.replace(/^, /, "")].filter(Boolean).join(", ");
  const lines = [...groups.values()].map(({ o, lines }) =>
    `- ${str(o.name)} ${str(o.file)}${lines.length ? `:${lines.join(", ")}` : ""}${
      shared === undefined ? sureness(o) : ""
    }`
  );
  return `${title}${head ? ` (${head})` : ""}:\n${lines.join("\n")}`;
}

/** An import: the project file it reaches, else the module as written (external or not found). */
function importLine(i: Obj): string {
  const names = Array.isArray(i.names) && i.names.length ? ` (${i.names.join(", ")})` : "";
  const target = i.resolved
    ? [i.resolved, ...(Array.isArray(i.also) ? i.also : [])].map(str).join(", ")
    : `${str(i.module)} (${i.external ? "external" : "not found"})`;
  return `${num(i.line)}: ${target}${names}`;
}

/**
 * Paths grouped by folder, one folder a line (`dir/: a, b`); a folder inside the one above
 * it is indented and named from there. An extension every path shares is said once, in
 * `title`.
 */
function byFolder(title: string, paths: string[]): string {
  const ext = paths[0]?.match(/\.[^./]+$/)?.[0] ?? "";
  const same = ext !== "" && paths.every((p) => p.endsWith(ext));
  const groups = new Map<string, string[]>();
  for (const p of paths) {
    const cut = p.lastIndexOf("/") + 1;
    const dir = p.slice(0, cut);
    const name = same ? p.slice(cut, -ext.length) : p.slice(cut);
    groups.set(dir, [...(groups.get(dir) ?? []), name]);
  }
  const dirs = [...groups.keys()].sort();
  // Names are separated by spaces (a comma is one more token each) unless one holds a space.
  const sep = paths.some((p) => p.includes(" ")) ? ", " : " ";
  const depth = new Map<string, number>();
  const lines = dirs.map((dir) => {
    // The nearest folder listed above that contains this one (sorted: it came first).
    const parent = dirs.filter((d) => d && d !== dir && dir.startsWith(d)).pop();
    depth.set(dir, parent === undefined ? 0 : depth.get(parent)! + 1);
    const shown = parent === undefined ? dir || "./" : dir.slice(parent.length);
    return `${"  ".repeat(depth.get(dir)!)}- ${shown}: ${groups.get(dir)!.join(sep)}`;
  });
  return `${title}${same ? ` (*${ext})` : ""}:\n${lines.join("\n")}`;
}

function importedBy(p: Obj): string {
  const files = Array.isArray(p.imported_by) ? p.imported_by.map(str) : [];
  return files.length ? byFolder(`Imported by ${files.length} files`, files) : "";
}

/** explain_file: the file's symbols as an outline, its imports and importers; its source when asked. */
export function explainFile(p: Obj): string {
  const symbols = objs(p.symbols);
  const depth = (s: Obj): number => {
    let d = 0;
    for (let parent = str(s.parent); parent && d < 6; d++) {
      parent = str(symbols.find((x) => str(x.qualified_name) === parent)?.parent);
    }
    return d;
  };
  const lines = symbols.map((s) => {
    const doc = firstLine(s.doc, 80);
    const head = str(s.signature) || `${str(s.kind)} ${str(s.name)}`;
    return `${"  ".repeat(depth(s))}- ${num(s.line)}: ${head}${doc ? ` — ${doc}` : ""}`;
  });
  return join([
    `# ${str(p.file)} — ${str(p.language)}, ${num(p.lines)} lines`,
    p.parse_error ? `Parse error: ${str(p.parse_error)}` : "",
    lines.length ? `Symbols (line: signature):\n${lines.join("\n")}` : "",
    listOf("Imports (line: file)", objs(p.imports), importLine),
    importedBy(p),
    typeof p.source === "string"
      ? `Source${p.source_truncated ? " (truncated)" : ""}:\n${fence(p.source, p.language)}`
      : "",
  ]);
}

/** The resolution most items share (said once instead of on each line). */
function commonResolution(items: Obj[]): unknown {
  const counts = new Map<unknown, number>();
  for (const o of items) counts.set(o.resolution, (counts.get(o.resolution) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** find_references: references grouped by file, how sure said once. */
export function findReferences(p: Obj): string {
  const refs = objs(p.references);
  const byFile = new Map<string, Obj[]>();
  for (const r of refs) byFile.set(str(r.file), [...(byFile.get(str(r.file)) ?? []), r]);
  const usual = commonResolution(refs);
  const groups = [...byFile].map(([file, rs]) =>
    `${file}\n${
      rs.map((r, i) => {
        // The enclosing definition once per run of lines inside it.
        const inside = r.in && (i === 0 || rs[i - 1].in !== r.in) ? ` in ${str(r.in)}` : "";
        const sure = r.resolution === usual ? "" : sureness(r);
        return `  ${num(r.line)} ${str(r.kind)}${sure}${inside}: ${str(r.context).trim()}`;
      }).join("\n")
    }`
  );
  const total = num(p.total);
  const by = isObj(p.by_resolution) ? p.by_resolution : {};
  const counts = [["exact", "exact"], ["inferred", "inferred"], ["name", "by name only"]]
    .filter(([k]) => num(by[k]) > 0).map(([k, label]) => `${label} ${num(by[k])}`).join(", ");
  const usualWord = usual === undefined ? "" : sureness({ resolution: usual }).replace(/^, /, "");
  return join([
    `${str(p.symbol)}: ${total} references${p.truncated ? ` (first ${refs.length} shown)` : ""}${
      counts ? `; ${counts}` : ""
    }${usualWord ? `; lines below are ${usualWord} unless marked` : ""}`,
    listOf("Defined at", objs(p.definitions), symbolLine),
    groups.join("\n"),
  ]);
}

/** get_dependencies: one file's imports and importers, or the whole graph. */
export function getDependencies(p: Obj): string {
  if (p.file) {
    return join([
      `# ${str(p.file)} (${str(p.language)})`,
      listOf("Imports (line: file)", objs(p.imports), importLine) || "Imports: none",
      importedBy(p) || "Imported by: none",
    ]);
  }
  const out = new Map<string, string[]>();
  for (const e of objs(p.edges)) out.set(str(e.from), [...(out.get(str(e.from)) ?? []), str(e.to)]);
  const nodes = objs(p.nodes);
  const cycles = Array.isArray(p.cycles) ? p.cycles : [];
  return join([
    `${nodes.length} files, ${objs(p.edges).length} imports between them`,
    out.size
      ? `Imports (file → files):\n${
        [...out].map(([f, to]) => `- ${f} → ${to.join(", ")}`).join("\n")
      }`
      : "",
    listOf(
      "External packages",
      objs(p.external),
      (x) => `${str(x.package)} (${num(x.files)} files)`,
    ),
    cycles.length
      ? `Cycles:\n${cycles.map((c) => `- ${Array.isArray(c) ? c.join(" → ") : str(c)}`).join("\n")}`
      : "",
    num(p.unresolved) ? `Unresolved imports: ${num(p.unresolved)}` : "",
  ]);
}

/** How sure a reference or call is, when less than exact (issue 13's `resolution`). */
function sureness(o: Obj): string {
  return o.resolution === "name"
    ? ", by name only"
    : o.resolution === "inferred"
    ? ", inferred from the receiver's type"
    : "";
}

/** One line of a call tree: a node, the edge that reaches it, and how deep it hangs. */
export interface CallTreeRow {
  node: Obj;
  /** The edge from the node above (its `file` and `line` are the call site). */
  edge: Obj;
  depth: number;
}

/**
 * Callers (`in`) or callees (`out`) of `get_call_graph`'s payload in tree order, following
 * `edges` from the root: each node once, under the first node that reaches it, depth 0 the
 * root's own callers or callees. The MCP text and `codectx calls` both print this order.
 */
export function callTreeRows(
  root: string,
  nodes: Obj[],
  edges: Obj[],
  direction: "in" | "out",
): CallTreeRow[] {
  const byName = new Map(nodes.map((n) => [str(n.name), n]));
  const next = new Map<string, Obj[]>();
  for (const e of edges) {
    const [from, to] = direction === "out" ? [str(e.from), str(e.to)] : [str(e.to), str(e.from)];
    if (from !== to) next.set(from, [...(next.get(from) ?? []), { ...e, target: to }]);
  }
  const rows: CallTreeRow[] = [];
  const seen = new Set([root]);
  const walk = (name: string, depth: number) => {
    for (const e of next.get(name) ?? []) {
      const target = str(e.target);
      if (!byName.has(target) || seen.has(target)) continue;
      seen.add(target);
      rows.push({ node: byName.get(target) as Obj, edge: e, depth });
      walk(target, depth + 1);
    }
  };
  walk(root, 0);
  return rows;
}

/** Callers or callees as an indented tree, following `edges` from the root. */
function callTree(root: string, nodes: Obj[], edges: Obj[], direction: "in" | "out"): string {
  return callTreeRows(root, nodes, edges, direction).map(({ node: n, edge: e, depth }) => {
    const where = n.file ? ` ${str(n.file)}:${num(n.line)}` : "";
    const kind = n.resolved === false && !n.resolution
      ? " (unresolved)"
      : n.kind
      ? ` (${str(n.kind)}${n.external ? "" : sureness(n)})` // a library's: nothing to guess
      : "";
    return `${"  ".repeat(depth)}- ${str(e.target)}${kind}${where} ← call at ${loc(e)}`;
  }).join("\n");
}

/** get_call_graph: callers and callees as indented trees. */
export function getCallGraph(p: Obj): string {
  const def = isObj(p.definition) ? p.definition : undefined;
  const root = def ? str(def.qualified_name) || str(def.name) : str(p.symbol);
  const edges = objs(p.edges);
  const callers = callTree(root, objs(p.callers), edges, "in");
  const callees = callTree(root, objs(p.callees), edges, "out");
  return join([
    def ? `# ${root} (${str(def.kind)}) ${loc(def)}` : `# ${root}`,
    `Callers:\n${callers || "- none found"}`,
    `Callees:\n${callees || "- none found"}`,
    num(p.unresolved_candidates)
      ? `${
        num(p.unresolved_candidates)
      } more calls of this name through a receiver of unknown type may call it (unresolved candidates).`
      : "",
    p.mermaid ? fence(p.mermaid, "mermaid") : "",
    listOf("Other symbols with this name", objs(p.candidates), symbolLine),
  ]);
}

/**
 * A call-site block's heading in a context window, `# file:line in caller (n×)` (or just
 * `# file:line` at module level), first in its block.
 */
const SITE_HEADING = /^(?:#|\/\/|--|;) (\S+:\d+\b.*)$/;

/**
 * The window's "Called from" section as one line per call site — where, in what, and the
 * calling line itself — instead of a code block of each caller's surroundings (each is a
 * `get_context` away). The rest of the window is kept as it is.
 */
function compactCallSites(text: string, symbol: string): string {
  const lines = text.split("\n");
  const start = lines.indexOf("## Called from");
  const open = start + 2;
  if (start < 0 || !lines[open]?.startsWith("```")) return text;
  let close = open + 1;
  while (close < lines.length && lines[close] !== "```") close++;
  const short = symbol.split(/\.|::/).pop() ?? symbol;
  const call = new RegExp(`\\b${short.replace(/[^\w$]/g, "\\$&")}\\s*\\(`);
  const out: string[] = [];
  let site: { where: string; calls: string[] } | null = null;
  const flush = () => {
    if (!site) return;
    const shown = site.calls.slice(0, 2).map((c) => `\`${c}\``).join(" … ");
    out.push(`- ${site.where}${shown ? `: ${shown}` : ""}`);
  };
  const body = lines.slice(open + 1, close);
  for (const [i, line] of body.entries()) {
    const heading = i === 0 || body[i - 1] === "" ? SITE_HEADING.exec(line) : null;
    if (heading) {
      flush();
      site = { where: heading[1], calls: [] };
    } else if (site && call.test(line) && !/^\s*(def|function|fn|func)\b/.test(line)) {
      site.calls.push(line.trim());
    }
  }
  flush();
  return [...lines.slice(0, start + 1), ...out, ...lines.slice(close + 1)].join("\n");
}

/** get_context: the window, call sites one line each. */
export function getContext(p: Obj): string {
  const candidates = Array.isArray(p.candidates) ? p.candidates.map(str) : [];
  return join([
    compactCallSites(str(p.text), str(p.symbol)),
    candidates.length ? `Other symbols with this name: ${candidates.join("; ")}` : "",
  ]);
}
