/**
 * The text an MCP client hands to the model: a compact Markdown rendering of a tool's
 * payload, one renderer per tool. `structuredContent` keeps the whole payload; the text keeps
 * what a model reads to answer — locations as `file:line`, code as code, lists as lists — and
 * leaves out what only a program needs (ids, counters, nulls, repeated fields).
 *
 * @module
 */

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const objs = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const str = (v: unknown): string => (typeof v === "string" ? v : v == null ? "" : String(v));
const num = (v: unknown): number => (typeof v === "number" ? v : 0);

/** `file:line` or `file:line-end`. */
function loc(o: Obj, lineKey = "line", endKey = "end_line"): string {
  const file = str(o.file);
  const line = o[lineKey];
  if (typeof line !== "number") return file;
  const end = o[endKey];
  return `${file}:${line}${typeof end === "number" && end !== line ? `-${end}` : ""}`;
}

/** The first line of a doc string, shortened. */
function firstLine(doc: unknown, max = 100): string {
  const line = str(doc).trim().split("\n")[0];
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function fence(code: unknown, language: unknown = ""): string {
  const text = str(code).replace(/\s+$/, "");
  const ticks = text.includes("```") ? "````" : "```";
  return `${ticks}${str(language)}\n${text}\n${ticks}`;
}

/** `name (kind) file:line — doc` for a symbol. */
function symbolLine(s: Obj): string {
  const name = str(s.qualified_name) || str(s.name);
  const doc = firstLine(s.doc);
  return `${name} (${str(s.kind)}) ${loc(s)}${doc ? ` — ${doc}` : ""}`;
}

function join(parts: Array<string | false | undefined>): string {
  return parts.filter((p) => p !== undefined && p !== false && p !== "").join("\n");
}

function listOf<T>(title: string, items: T[], line: (x: T) => string, total?: number): string {
  if (items.length === 0) return "";
  const more = total !== undefined && total > items.length ? ` (${items.length} of ${total})` : "";
  return `${title}${more}:\n${items.map((x) => `- ${line(x)}`).join("\n")}`;
}

/** Lines of a search result's code shown; the rest is a `file:line` away. */
const SNIPPET_LINES = 6;

/**
 * A snippet's leading comment block, cut off: its first sentence goes to the heading, the
 * code starts at the first line that is not comment.
 */
function splitLeadingComment(lines: string[]): { summary: string; code: string[] } {
  let i = 0;
  while (i < lines.length && lines[i].trim() === "") i++;
  const first = lines[i]?.trim() ?? "";
  let end = i;
  if (first.startsWith("/*")) {
    while (end < lines.length && !lines[end].includes("*/")) end++;
    end++;
  } else if (/^(\/\/|# )/.test(first)) {
    while (end < lines.length && /^\s*(\/\/|#( |$))/.test(lines[end])) end++;
  }
  if (end === i) return { summary: "", code: lines.slice(i) };
  const text = lines.slice(i, end).map((l) => l.replace(/^\s*(\/\*\*?|\*\/|\*|\/\/\/?|#)\s?/, ""))
    .map((l) => l.replace(/\*\/\s*$/, "").trim()).filter((l) => l && !l.startsWith("@"));
  return { summary: firstLine(text.join(" ").split(/(?<=\.)\s/)[0]), code: lines.slice(end) };
}

function snippets(items: Obj[]): string {
  return items.map((h, i) => {
    const { summary, code } = splitLeadingComment(str(h.snippet).replace(/\s+$/, "").split("\n"));
    const more = code.length > SNIPPET_LINES ? `\n(${code.length - SNIPPET_LINES} more lines)` : "";
    return `${i + 1}. ${loc(h)}${h.symbol ? ` ${str(h.symbol)}` : ""}${
      h.kind ? ` (${str(h.kind)})` : ""
    } score ${num(h.score).toFixed(2)}${summary ? ` — ${summary}` : ""}\n${
      fence(code.slice(0, SNIPPET_LINES).join("\n"), h.language)
    }${more}`;
  }).join("\n");
}

function semanticSearch(p: Obj): string {
  const hits = objs(p.snippets);
  const v = isObj(p.vectors) ? p.vectors : {};
  const vectors = num(v.done) < num(v.total)
    ? `; vectors ${str(v.state)} ${num(v.done)}/${num(v.total)}`
    : "";
  return join([
    `${hits.length} results for "${str(p.query)}" (${str(p.mode)}${vectors})`,
    snippets(hits),
  ]);
}

function explainSymbol(p: Obj): string {
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
    sites("Callers", objs(p.callers), num(p.callers_total)),
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
    ? str(i.resolved)
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

function explainFile(p: Obj): string {
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
  ]);
}

/** The resolution most items share (said once instead of on each line). */
function commonResolution(items: Obj[]): unknown {
  const counts = new Map<unknown, number>();
  for (const o of items) counts.set(o.resolution, (counts.get(o.resolution) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

function findReferences(p: Obj): string {
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

function getDependencies(p: Obj): string {
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

/** Callers or callees as an indented tree, following `edges` from the root. */
function callTree(root: string, nodes: Obj[], edges: Obj[], direction: "in" | "out"): string {
  const byName = new Map(nodes.map((n) => [str(n.name), n]));
  const next = new Map<string, Obj[]>();
  for (const e of edges) {
    const [from, to] = direction === "out" ? [str(e.from), str(e.to)] : [str(e.to), str(e.from)];
    if (from !== to) next.set(from, [...(next.get(from) ?? []), { ...e, target: to }]);
  }
  const lines: string[] = [];
  const seen = new Set([root]);
  const walk = (name: string, depth: number) => {
    for (const e of next.get(name) ?? []) {
      const target = str(e.target);
      if (!byName.has(target) || seen.has(target)) continue;
      seen.add(target);
      const n = byName.get(target) as Obj;
      const where = n.file ? ` ${str(n.file)}:${num(n.line)}` : "";
      const kind = n.resolved === false && !n.resolution
        ? " (unresolved)"
        : n.kind
        ? ` (${str(n.kind)}${sureness(n)})`
        : "";
      lines.push(`${"  ".repeat(depth)}- ${target}${kind}${where} ← call at ${loc(e)}`);
      walk(target, depth + 1);
    }
  };
  walk(root, 0);
  return lines.join("\n");
}

function getCallGraph(p: Obj): string {
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

function getContext(p: Obj): string {
  const candidates = Array.isArray(p.candidates) ? p.candidates.map(str) : [];
  return join([
    compactCallSites(str(p.text), str(p.symbol)),
    candidates.length ? `Other symbols with this name: ${candidates.join("; ")}` : "",
  ]);
}

function metricsLine(m: Obj): string {
  return `loc ${num(m.loc)}, sloc ${num(m.sloc)}, complexity ${num(m.cyclomatic_complexity)}, ` +
    `maintainability ${num(m.maintainability_index)} (${str(m.rank)})`;
}

function issueLine(i: Obj): string {
  return `${str(i.test_id)} ${str(i.severity)}/${str(i.confidence)} ${loc(i)}: ${str(i.message)}` +
    `${i.code ? ` \`${firstLine(i.code, 80)}\`` : ""}`;
}

function validateCode(p: Obj): string {
  const m = isObj(p.metrics) ? p.metrics : undefined;
  const known = new Set([
    "valid",
    "language",
    "language_source",
    "syntax_errors",
    "unresolved_symbols",
    "security_issues",
    "metrics",
  ]);
  const rest = Object.fromEntries(Object.entries(p).filter(([k]) => !known.has(k)));
  return join([
    `${p.valid ? "valid" : "not valid"} ${str(p.language)}`,
    listOf(
      "Syntax errors",
      objs(p.syntax_errors),
      (e) => `${num(e.line)}:${num(e.column)} ${str(e.message)}`,
    ),
    listOf("Names that exist nowhere", objs(p.unresolved_symbols), (u) => {
      const near = Array.isArray(u.suggestions) && u.suggestions.length
        ? ` — did you mean ${u.suggestions.map(str).join(", ")}?`
        : "";
      return `${str(u.name)} :${num(u.line)}${near}`;
    }),
    listOf("Security issues", objs(p.security_issues), issueLine),
    m ? `Metrics: ${metricsLine(m)}` : "",
    m
      ? listOf(
        "Functions",
        objs(m.functions),
        (f) =>
          `${str(f.qualified_name) || str(f.name)} :${num(f.line)} complexity ${
            num(f.complexity)
          } (${str(f.rank)})`,
      )
      : "",
    Object.keys(rest).length ? compact(rest) : "",
  ]);
}

function analyzeQuality(p: Obj): string {
  const s = isObj(p.summary) ? p.summary : {};
  const counts = isObj(p.issue_counts) ? p.issue_counts : {};
  const sev = isObj(counts.by_severity) ? counts.by_severity : {};
  const files = objs(p.files).filter((f) => num(f.sloc) > 0)
    .sort((a, b) => num(a.maintainability_index) - num(b.maintainability_index)).slice(0, 10);
  const worst = objs(p.worst_functions).slice(0, 10);
  const issues = objs(p.bandit_issues);
  return join([
    `${str(p.path)}: maintainability ${num(p.maintainability_index)} (${str(p.rank)}), ` +
    `${num(s.code_files)} code files, sloc ${num(s.sloc)}, complexity ${
      num(s.cyclomatic_complexity)
    }; issues ${num(counts.total)} (high ${num(sev.HIGH)}, medium ${num(sev.MEDIUM)}, low ${
      num(sev.LOW)
    })${p.partial ? "; partial" : ""}`,
    listOf(
      "Least maintainable files",
      files,
      (f) =>
        `${str(f.file)} MI ${num(f.maintainability_index)} (${str(f.rank)}), complexity ${
          num(f.cyclomatic_complexity)
        }, sloc ${num(f.sloc)}`,
    ),
    listOf(
      "Most complex functions",
      worst,
      (f) =>
        `${str(f.qualified_name) || str(f.name)} ${loc(f)} complexity ${num(f.complexity)} (${
          str(f.rank)
        })`,
    ),
    listOf("Issues", issues.slice(0, 20), issueLine, issues.length),
  ]);
}

function searchSymbols(p: Obj): string {
  const symbols = objs(p.symbols);
  return join([
    `${symbols.length} of ${num(p.total)} symbols`,
    symbols.map((s) => {
      const doc = firstLine(s.doc, 80);
      const name = str(s.name);
      const qualified = str(s.qualified_name) || name;
      const sig = str(s.signature);
      // The signature names the symbol and usually says its kind; a method adds its owner.
      const head = !sig
        ? `${str(s.kind)} ${qualified}`
        : sig.includes(name) && qualified === name
        ? sig
        : `${qualified}: ${sig}`;
      return `- ${loc(s, "line", "_")} ${head}${doc ? ` — ${doc}` : ""}`;
    }).join("\n"),
  ]);
}

function indexProject(p: Obj): string {
  const langs = isObj(p.languages)
    ? Object.entries(p.languages).map(([k, v]) => `${k} ${num(v)}`).join(", ")
    : "";
  const changed = num(p.changed)
    ? `${num(p.changed)} changed (+${num(p.added)} ~${num(p.modified)} -${num(p.deleted)})`
    : "unchanged";
  const errors = Array.isArray(p.errors) ? p.errors : [];
  return join([
    `${str(p.state)}: ${num(p.files)} files (${langs}), ${num(p.chunks)} chunks, ${
      num(p.symbols)
    } symbols; ${changed}`,
    errors.length
      ? `Errors:\n${errors.map((e) => `- ${isObj(e) ? compact(e) : str(e)}`).join("\n")}`
      : "",
  ]);
}

function ask(p: Obj): string {
  const answer = str(p.answer);
  // The offline answer already quotes each source; list only those it does not name.
  const missing = objs(p.sources).filter((s) => !answer.includes(`${str(s.file)}:${num(s.line)}`));
  return join([answer, listOf("Sources", missing, (s) => `${loc(s)} ${str(s.symbol)}`)]);
}

/** A payload with no renderer: one line of JSON, no indentation. */
function compact(p: Obj): string {
  return JSON.stringify(p);
}

const RENDERERS: Record<string, (p: Obj) => string> = {
  semantic_search: semanticSearch,
  explain_symbol: explainSymbol,
  explain_file: explainFile,
  summarize_repo: (p) => str(p.text),
  find_references: findReferences,
  get_dependencies: getDependencies,
  get_call_graph: getCallGraph,
  get_context: getContext,
  validate_code: validateCode,
  analyze_quality: analyzeQuality,
  search_symbols: searchSymbols,
  index_project: indexProject,
  ask,
};

/**
 * The Markdown text of `toolName`'s payload.
 *
 * @example
 * ```ts
 * renderText("search_symbols", { symbols: [], total: 0 }); // "0 of 0 symbols"
 * ```
 */
export function renderText(toolName: string, payload: Record<string, unknown>): string {
  const render = RENDERERS[toolName] ?? compact;
  return render(payload);
}
