/**
 * The collection step of `get_context`'s window: every neighbour of a definition worth
 * showing, unranked, gathered by one stage per group — enclosing definitions, what the
 * definition uses, who uses it, the file's imports, sibling members.
 *
 * @module
 */

import { isAuxiliary } from "../graph/lookup.ts";
import type { LoadedIndex } from "../project/project.ts";
import { CALLABLE_KINDS, CLASS_LIKE, type SymbolKind, type SymbolRecord } from "../types.ts";
import type { GraphView, Use } from "./graph.ts";
import { fileImports } from "./imports.ts";
import { docSummary, type SourceReader } from "./source.ts";

/** The groups of the window. */
export type Group = "imports" | "parent" | "callees" | "types" | "callers" | "members";

/** The order in which groups are rendered. */
export const GROUP_ORDER: Group[] = ["imports", "parent", "callees", "types", "callers", "members"];

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
export interface Item {
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
  /**
   * Ranked before every scored item: the call sites of a symbol with few sure callers (what
   * it is for, which no list of what it calls tells).
   */
  first?: boolean;
}

/** A symbol with at most this many sure callers keeps them first in its window. */
const FEW_CALLERS = 2;

/** What a context's "types" group shows besides callables: containers, constants, namespaces. */
const TYPE_LIKE = new Set<SymbolKind>([...CLASS_LIKE, "constant", "namespace"]);

const MAX_CALLERS = 40;
const MAX_MEMBERS = 40;
const MAX_USED = 40;
/** How many enclosing definitions up are shown. */
const MAX_PARENT_DISTANCE = 3;

/** A symbol's signature (its name when it has none), at most 8 lines. */
export function signatureLines(s: SymbolRecord): string[] {
  const sig = s.signature.trim() || s.name;
  return sig.split("\n").slice(0, 8);
}

function loc(s: { file: string; line: number }): string {
  return `${s.file}:${s.line}`;
}

/** What every stage reads: the definition, its body's symbols, and the cut-off order. */
interface Scope {
  graph: GraphView;
  target: SymbolRecord;
  reader: SourceReader;
  /** Symbols of the target's file. */
  fileSymbols: readonly SymbolRecord[];
  /** Symbols of the same file inside the target (itself included). */
  inside: Set<SymbolRecord>;
  /** Where a list must be cut before ranking: main code first, then the more central. */
  before: (a: SymbolRecord | null, b: SymbolRecord | null) => number;
}

/**
 * Collect: every neighbour of the definition worth showing, unranked, group by group.
 *
 * @example
 * ```ts
 * const items = await collect(index, graph, target, new SourceReader(root), () => 0.5);
 * items.map((it) => `${it.group} ${it.label}`);
 * ```
 */
export async function collect(
  index: LoadedIndex,
  graph: GraphView,
  target: SymbolRecord,
  reader: SourceReader,
  centrality: (s: SymbolRecord) => number,
): Promise<Item[]> {
  const fileSymbols = index.symbolsByFile.get(target.file) ?? [];
  const scope: Scope = {
    graph,
    target,
    reader,
    fileSymbols,
    inside: new Set(fileSymbols.filter((o) =>
      o === target ||
      (o.startLine >= target.startLine && o.endLine <= target.endLine && o.line > target.line)
    )),
    before: (a, b) =>
      Number(a !== null && isAuxiliary(a.file)) - Number(b !== null && isAuxiliary(b.file)) ||
      (b ? centrality(b) : 0) - (a ? centrality(a) : 0),
  };
  return [
    ...enclosingItems(scope),
    ...usedItems(scope),
    ...await callerItems(scope),
    ...await importItems(scope),
    ...memberItems(scope),
  ];
}

/** The enclosing definitions: the parent at distance 1, its parent at 2, … */
function enclosingItems({ target, fileSymbols }: Scope): Item[] {
  const items: Item[] = [];
  let parentName = target.parent;
  let distance = 1;
  while (parentName && distance <= MAX_PARENT_DISTANCE) {
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
  return items;
}

/** What the definition uses: callees (calls of callables) and other names (types, constants). */
function usedItems({ graph, target, inside, before }: Scope): Item[] {
  const used = new Map<SymbolRecord, { count: number; call: boolean; sure: boolean }>();
  for (const s of inside) {
    for (const u of graph.usedBy(s)) {
      if (inside.has(u.to) || u.to === target) continue;
      const prev = used.get(u.to);
      if (prev) {
        prev.count++;
        prev.call ||= u.kind === "call";
        prev.sure ||= !u.byNameOnly;
      } else used.set(u.to, { count: 1, call: u.kind === "call", sure: !u.byNameOnly });
    }
  }
  // What is used for sure first; a member matched by name alone only after, and said so.
  const usedList = [...used].sort((a, b) =>
    Number(b[1].sure) - Number(a[1].sure) || b[1].count - a[1].count || before(a[0], b[0])
  ).slice(0, MAX_USED);
  const items: Item[] = [];
  for (const [s, { count, call, sure }] of usedList) {
    const group: Group = call && CALLABLE_KINDS.has(s.kind) ? "callees" : "types";
    if (group === "types" && !TYPE_LIKE.has(s.kind) && !CALLABLE_KINDS.has(s.kind)) continue;
    const summary = docSummary(s.doc);
    items.push({
      group,
      reason: group === "callees" ? "called by the definition" : "used by the definition",
      file: s.file,
      line: s.line,
      endLine: s.line + signatureLines(s).length - 1,
      label: `${loc(s)} ${s.kind} ${s.qualifiedName}${sure ? "" : " (matched by name only)"}${
        summary ? ` — ${summary}` : ""
      }`,
      lines: signatureLines(s),
      score: BASE[group] * (1 + 0.15 * Math.log2(count)) * (sure ? 1 : 0.5),
      symbol: s,
    });
  }
  return items;
}

/** Who uses it: call sites (any use for types and constants), one item per caller. */
async function callerItems({ graph, target, reader, inside, before }: Scope): Promise<Item[]> {
  const callable = CALLABLE_KINDS.has(target.kind);
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
  // Sure call sites first: a member matched by name alone (every string's `.replace()` for
  // a class's `replace`) must not crowd them out; such sites follow, and say so.
  const guessed = (list: Use[]) => list.every((u) => u.byNameOnly);
  const callerLists = [...byCaller.values()]
    .sort((a, b) =>
      Number(guessed(a)) - Number(guessed(b)) || before(a[0].from, b[0].from) ||
      b.length - a.length
    )
    .slice(0, MAX_CALLERS);
  const items: Item[] = [];
  const sure = callerLists.filter((list) => !guessed(list)).length;
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
      label: `${first.file}:${first.line} ${where}${list.length > 1 ? ` (${list.length}×)` : ""}${
        guessed(list) ? ", matched by name only" : ""
      }`,
      lines,
      score: BASE.callers * (1 + 0.1 * Math.log2(list.length)) *
        (isAuxiliary(first.file) ? 0.8 : 1) * (guessed(list) ? 0.5 : 1),
      first: sure <= FEW_CALLERS && !guessed(list),
      symbol: first.from,
    });
  }
  return items;
}

/** The file's imports, outside the definition (one item). */
async function importItems({ graph, target, reader, fileSymbols }: Scope): Promise<Item[]> {
  const spans = graph.importLines(target.file);
  if (spans.length === 0) return [];
  const imports = fileImports(spans, await reader.lines(target.file), fileSymbols)
    .filter((im) => im.endLine < target.startLine || im.line > target.endLine);
  if (!imports.length) return [];
  return [{
    group: "imports",
    reason: "imports of the file",
    file: target.file,
    line: imports[0].line,
    endLine: imports[imports.length - 1].endLine,
    label: `${target.file} imports`,
    lines: imports.flatMap((im) => im.text),
    score: BASE.imports,
    symbol: null,
  }];
}

/** Sibling members (or the file's other top-level definitions). */
function memberItems({ target, fileSymbols, inside, before }: Scope): Item[] {
  const siblings = fileSymbols.filter((s) =>
    s !== target && s.parent === target.parent && !inside.has(s) && s.kind !== "section"
  ).sort(before).slice(0, MAX_MEMBERS);
  return siblings.map((s) => ({
    group: "members",
    reason: target.parent ? `member of ${target.parent}` : "defined in the same file",
    file: s.file,
    line: s.line,
    endLine: s.line + signatureLines(s).length - 1,
    label: `${s.file}:${s.line}`,
    lines: signatureLines(s),
    score: BASE.members / 2,
    symbol: s,
  }));
}
