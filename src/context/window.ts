/**
 * `get_context`'s pipeline, in the shape of Aider's repo map: collect what surrounds a
 * definition (its callees, the types it uses, its callers' call sites, its file's imports,
 * its enclosing definition and sibling members) → rank it (graph distance × PageRank over
 * the reference graph) → render it as Markdown → fit it to the token budget.
 *
 * @module
 */

import type { LoadedIndex, Project } from "../index/project.ts";
import type { SymbolKind, SymbolRecord } from "../types.ts";
import { graphFor, type GraphView, type Use } from "./graph.ts";
import { importLines } from "./imports.ts";
import { clampText, fitBudget } from "./pack.ts";
import { symbolRanks } from "./rank.ts";
import { resolveInIndex } from "./resolve.ts";
import {
  commentLeader,
  docCommentStart,
  docSummary,
  fenceLanguage,
  isAuxiliary,
  SourceReader,
} from "./source.ts";
import { type TokenCounter, tokenCounter } from "./tokens.ts";

/** Default and limits of the budget. */
export const DEFAULT_MAX_TOKENS = 2000;
export const MAX_TOKENS_LIMIT = 32000;

/** What went into a context window, and why. */
export interface ContextSource {
  file: string;
  line: number;
  endLine: number;
  reason: string;
}

/** A context window for one symbol. */
export interface ContextWindow {
  /** Qualified name of the symbol. */
  symbol: string;
  file: string;
  line: number;
  text: string;
  tokens: number;
  sources: ContextSource[];
  /** True when something ranked was left out or the definition was cut. */
  truncated: boolean;
  /** Other symbols the name could mean (`file:line qualified_name`). */
  candidates: SymbolRecord[];
}

/** The groups of the window, in the order they are rendered. */
type Group = "imports" | "parent" | "callees" | "types" | "callers" | "members";

const GROUP_ORDER: Group[] = ["imports", "parent", "callees", "types", "callers", "members"];

/** How much each kind of neighbour helps, before graph distance and rank. */
const BASE: Record<Group, number> = {
  parent: 1,
  callees: 0.9,
  types: 0.85,
  callers: 0.8,
  imports: 0.6,
  members: 0.5,
};

/** One piece of context besides the definition. */
interface Item {
  group: Group;
  reason: string;
  file: string;
  line: number;
  endLine: number;
  /** Location (and a short note) shown above the lines. */
  label: string;
  lines: string[];
  score: number;
  /** The symbol the item shows (the caller, for a call site); its PageRank scales the score. */
  symbol: SymbolRecord | null;
}

const CALLABLE = new Set<SymbolKind>(["function", "method", "constructor", "macro"]);
const TYPE_LIKE = new Set<SymbolKind>([
  "class",
  "interface",
  "struct",
  "enum",
  "trait",
  "type",
  "constant",
  "module",
  "namespace",
]);

const MAX_CALLERS = 40;
const MAX_MEMBERS = 40;
const MAX_USED = 40;

function signatureLines(s: SymbolRecord): string[] {
  const sig = s.signature.trim() || s.name;
  return sig.split("\n").slice(0, 8);
}

function loc(s: { file: string; line: number }): string {
  return `${s.file}:${s.line}`;
}

/** Symbols of the same file inside `s` (itself included). */
function within(index: LoadedIndex, s: SymbolRecord): SymbolRecord[] {
  return (index.symbolsByFile.get(s.file) ?? []).filter((o) =>
    o === s || (o.startLine >= s.startLine && o.endLine <= s.endLine && o.line > s.line)
  );
}

/** Collect: every neighbour of the definition worth showing, unranked. */
async function collect(
  index: LoadedIndex,
  graph: GraphView,
  target: SymbolRecord,
  reader: SourceReader,
  centrality: (s: SymbolRecord) => number,
): Promise<Item[]> {
  // Where a list must be cut before ranking: main code first, then the more central.
  const before = (a: SymbolRecord | null, b: SymbolRecord | null) =>
    Number(a !== null && isAuxiliary(a.file)) - Number(b !== null && isAuxiliary(b.file)) ||
    (b ? centrality(b) : 0) - (a ? centrality(a) : 0);
  const items: Item[] = [];
  const inside = new Set(within(index, target));

  // The enclosing definitions (parent at distance 1, its parent at 2, …).
  let parentName = target.parent;
  let distance = 1;
  const fileSymbols = index.symbolsByFile.get(target.file) ?? [];
  while (parentName && distance <= 3) {
    const parent = fileSymbols.find((s) =>
      s.qualifiedName === parentName && s.startLine <= target.startLine &&
      s.endLine >= target.endLine
    );
    if (!parent) break;
    const summary = docSummary(parent.doc);
    items.push({
      group: "parent",
      reason: distance === 1 ? "enclosing definition" : "outer enclosing definition",
      file: parent.file,
      line: parent.line,
      endLine: parent.line,
      label: `${loc(parent)} ${parent.kind} ${parent.qualifiedName}${
        summary ? ` — ${summary}` : ""
      }`,
      lines: signatureLines(parent),
      score: BASE.parent / distance,
      symbol: parent,
    });
    parentName = parent.parent;
    distance++;
  }

  // What the definition uses: callees (calls of callables) and other names (types, constants).
  const used = new Map<SymbolRecord, { count: number; call: boolean }>();
  for (const s of inside) {
    for (const u of graph.usedBy(s)) {
      if (inside.has(u.to) || u.to === target) continue;
      const prev = used.get(u.to);
      if (prev) {
        prev.count++;
        prev.call ||= u.kind === "call";
      } else used.set(u.to, { count: 1, call: u.kind === "call" });
    }
  }
  const usedList = [...used].sort((a, b) => b[1].count - a[1].count || before(a[0], b[0]))
    .slice(0, MAX_USED);
  for (const [s, { count, call }] of usedList) {
    const group: Group = call && CALLABLE.has(s.kind) ? "callees" : "types";
    if (group === "types" && !TYPE_LIKE.has(s.kind) && !CALLABLE.has(s.kind)) continue;
    const summary = docSummary(s.doc);
    items.push({
      group,
      reason: group === "callees" ? "called by the definition" : "used by the definition",
      file: s.file,
      line: s.line,
      endLine: s.line + signatureLines(s).length - 1,
      label: `${loc(s)} ${s.kind} ${s.qualifiedName}${summary ? ` — ${summary}` : ""}`,
      lines: signatureLines(s),
      score: BASE[group] * (1 + 0.15 * Math.log2(count)),
      symbol: s,
    });
  }

  // Who uses it: call sites (any use for types and constants), one item per caller.
  const callable = CALLABLE.has(target.kind);
  const uses = graph.usesOf(target).filter((u) =>
    !inside.has(u.from as SymbolRecord) && (!callable || u.kind === "call")
  );
  const byCaller = new Map<string, Use[]>();
  for (const u of uses) {
    const key = u.from ? `${u.from.file}#${u.from.qualifiedName}#${u.from.line}` : `${u.file}#`;
    const list = byCaller.get(key);
    if (list) list.push(u);
    else byCaller.set(key, [u]);
  }
  const callerLists = [...byCaller.values()]
    .sort((a, b) => before(a[0].from, b[0].from) || b.length - a.length)
    .slice(0, MAX_CALLERS);
  for (const list of callerLists) {
    const first = list[0];
    const fileLines = await reader.lines(first.file);
    const shown = list.slice(0, 2);
    const from = Math.max(1, shown[0].line - 1);
    const to = Math.min(fileLines.length, shown[shown.length - 1].line + 1);
    const lines: string[] = [];
    if (first.from && first.from.line < from) lines.push(...signatureLines(first.from), "    ...");
    const body = fileLines.slice(from - 1, Math.min(to, from + 8));
    while (body.length > 1 && body[body.length - 1].trim() === "") body.pop();
    lines.push(...body);
    const where = first.from ? `in ${first.from.qualifiedName}` : "at top level";
    items.push({
      group: "callers",
      reason: callable ? "call site" : "use site",
      file: first.file,
      line: from,
      endLine: from + body.length - 1,
      label: `${first.file}:${first.line} ${where}${list.length > 1 ? ` (${list.length}×)` : ""}`,
      lines,
      score: BASE.callers * (1 + 0.1 * Math.log2(list.length)) *
        (isAuxiliary(first.file) ? 0.8 : 1),
      symbol: first.from,
    });
  }

  // The file's imports (one item).
  const fileLines = await reader.lines(target.file);
  const imports = importLines(fileLines, target.language)
    .filter((im) => im.endLine < target.startLine || im.line > target.endLine);
  if (imports.length) {
    items.push({
      group: "imports",
      reason: "imports of the file",
      file: target.file,
      line: imports[0].line,
      endLine: imports[imports.length - 1].endLine,
      label: `${target.file} imports`,
      lines: imports.flatMap((im) => im.text),
      score: BASE.imports,
      symbol: null,
    });
  }

  // Sibling members (or the file's other top-level definitions).
  const siblings = fileSymbols.filter((s) =>
    s !== target && s.parent === target.parent && !inside.has(s) && s.kind !== "section"
  ).sort(before).slice(0, MAX_MEMBERS);
  for (const s of siblings) {
    items.push({
      group: "members",
      reason: target.parent ? `member of ${target.parent}` : "defined in the same file",
      file: s.file,
      line: s.line,
      endLine: s.line + signatureLines(s).length - 1,
      label: `${s.file}:${s.line}`,
      lines: signatureLines(s),
      score: BASE.members / 2,
      symbol: s,
    });
  }
  return items;
}

/** Rank: graph distance is in the base score; PageRank of the symbol behind an item scales it. */
function rankItems(items: Item[], centrality: (s: SymbolRecord) => number): Item[] {
  for (const it of items) {
    const pr = it.symbol ? centrality(it.symbol) : 0.5;
    it.score *= 0.5 + 0.5 * Math.sqrt(pr);
  }
  return [...items].sort((a, b) =>
    b.score - a.score || (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line)
  );
}

/** The definition's lines: doc comment above, then the source (or an outline when asked). */
async function definitionLines(
  index: LoadedIndex,
  target: SymbolRecord,
  reader: SourceReader,
): Promise<{ first: number; lines: string[]; outline: string[] | null }> {
  const all = await reader.lines(target.file);
  const first = docCommentStart(all, target.startLine);
  const lines = all.slice(first - 1, target.endLine);
  // An outline for big containers: head up to the first member, then members' signatures.
  const members = (index.symbolsByFile.get(target.file) ?? []).filter((s) =>
    s.parent === target.qualifiedName && s.startLine > target.startLine &&
    s.endLine <= target.endLine
  );
  let outline: string[] | null = null;
  if (members.length > 1) {
    const headEnd = Math.min(members[0].startLine - 1, target.startLine + 40);
    outline = all.slice(first - 1, headEnd);
    for (const m of members) {
      const sigLen = signatureLines(m).length;
      const last = Math.min(m.endLine, m.line + sigLen - 1);
      const head = all.slice(m.startLine - 1, last);
      const indent = /^\s*/.exec(head[head.length - 1] ?? "")?.[0] ?? "";
      outline.push(...head);
      const summary = docSummary(m.doc);
      if (summary) outline.push(`${indent}    ${commentLeader(target.language)} ${summary}`);
      if (m.endLine > last) outline.push(`${indent}    ...`);
    }
  }
  return { first, lines, outline };
}

/** Options of {@linkcode buildContextWindow}. */
export interface ContextOptions {
  symbolName: string;
  /** Restrict the lookup to this file or folder (project-relative). */
  filePath?: string;
  maxTokens?: number;
}

/**
 * Builds the context window of a symbol within `maxTokens` (default 2000) tokens.
 *
 * @example
 * ```ts
 * const w = await buildContextWindow(project, { symbolName: "Session.request", maxTokens: 1500 });
 * console.log(w.tokens <= 1500, w.text);
 * ```
 */
export async function buildContextWindow(
  project: Project,
  opts: ContextOptions,
): Promise<ContextWindow> {
  const max = opts.maxTokens ?? DEFAULT_MAX_TOKENS;
  const index = await project.index();
  const { symbol: target, candidates } = resolveInIndex(index, opts.symbolName, opts.filePath);
  const [graph, counter] = await Promise.all([graphFor(project, index), tokenCounter()]);
  const reader = new SourceReader(project.root);

  const { rank, max: top } = symbolRanks(graph, index.symbols.length);
  const centrality = (s: SymbolRecord) => rank[graph.idOf(s)] / top;
  const items = await collect(index, graph, target, reader, centrality);
  const ranked = rankItems(items, centrality);
  const def = await definitionLines(index, target, reader);
  return pack(target, def, ranked, candidates, max, counter);
}

/** Render + fit: the definition first, then as many ranked items as the budget holds. */
function pack(
  target: SymbolRecord,
  def: { first: number; lines: string[]; outline: string[] | null },
  ranked: Item[],
  candidates: SymbolRecord[],
  max: number,
  counter: TokenCounter,
): ContextWindow {
  const fence = fenceLanguage(target.language);
  const lead = commentLeader(target.language);
  const summary = docSummary(target.doc);
  const header = [
    `# ${target.qualifiedName} — ${target.kind} in ${target.file}:${target.line}`,
    ...(summary && !def.lines.join("\n").includes(summary.slice(0, 40)) ? ["", summary] : []),
  ];

  const renderWith = (body: string[], outline: boolean) => (shown: number, k: number) => {
    const out = [...header, "", "```" + fence, ...body.slice(0, shown), "```"];
    if (outline) {
      out.push(`(outline: member bodies left out; lines ${def.first}–${target.endLine})`);
    } else if (shown < body.length) {
      out.push(`(cut: lines ${def.first + shown}–${target.endLine} not shown)`);
    }
    const chosen = ranked.slice(0, k);
    for (const g of GROUP_ORDER) {
      const its = chosen.filter((it) => it.group === g);
      if (!its.length) continue;
      out.push("", `## ${groupTitle(g, target)}`, "", "```" + fence);
      its.forEach((it, i) => {
        if (i > 0) out.push("");
        out.push(`${lead} ${it.label}`, ...it.lines);
      });
      out.push("```");
    }
    return out.join("\n");
  };

  const T = def.lines.length;
  const K = ranked.length;
  let render = renderWith(def.lines, false);
  let body = def.lines;
  let outline = false;
  const bare = counter.count(render(0, 0));
  if (bare > max) {
    // Not even the heading fits: cut the whole text at line (then character) boundaries.
    const c = clampText(render(T, 0), max, counter);
    return finish(target, c.text, c.tokens, def.first, 0, [], true, candidates);
  }
  const others = K ? counter.count(render(0, K)) - bare : 0;
  const cap = max - Math.min(others, Math.floor(max * 0.4));
  let t = fitBudget(0, T, cap, counter, (n) => render(n, 0)) ??
    { text: "", tokens: bare, amount: 0 };
  if (t.amount < T && def.outline) {
    // The whole body does not fit its share: an outline (head + member signatures) reads better.
    const o = def.outline;
    const rOutline = renderWith(o, true);
    const to = fitBudget(0, o.length, cap, counter, (n) => rOutline(n, 0));
    if (to && to.amount === o.length) {
      render = rOutline;
      body = o;
      outline = true;
      t = to;
    }
  }
  let k = fitBudget(0, K, max, counter, (n) => render(t.amount, n))!;
  if (k.amount === K && t.amount < body.length) {
    t = fitBudget(t.amount, body.length, max, counter, (n) => render(n, K)) ?? t;
    k = { ...t, amount: K };
  }
  const shown = t.amount;
  const text = render(shown, k.amount);
  const tokens = counter.count(text);
  const lastLine = outline ? target.endLine : def.first + Math.max(shown, 1) - 1;
  return finish(
    target,
    text,
    tokens,
    def.first,
    lastLine,
    ranked.slice(0, k.amount),
    outline || shown < body.length || k.amount < K,
    candidates,
  );
}

function groupTitle(g: Group, target: SymbolRecord): string {
  switch (g) {
    case "imports":
      return `Imports of ${target.file}`;
    case "parent":
      return "Enclosing definition";
    case "callees":
      return "Calls";
    case "types":
      return "Uses";
    case "callers":
      return "Called from";
    case "members":
      return target.parent ? `Other members of ${target.parent}` : `Also in ${target.file}`;
  }
}

function finish(
  target: SymbolRecord,
  text: string,
  tokens: number,
  first: number,
  last: number,
  chosen: Item[],
  truncated: boolean,
  candidates: SymbolRecord[],
): ContextWindow {
  const sources: ContextSource[] = [];
  if (last >= first) {
    sources.push({ file: target.file, line: first, endLine: last, reason: "definition" });
  }
  const order = new Map(GROUP_ORDER.map((g, i) => [g, i]));
  for (const it of [...chosen].sort((a, b) => order.get(a.group)! - order.get(b.group)!)) {
    sources.push({ file: it.file, line: it.line, endLine: it.endLine, reason: it.reason });
  }
  return {
    symbol: target.qualifiedName,
    file: target.file,
    line: target.line,
    text,
    tokens,
    sources,
    truncated,
    candidates,
  };
}
