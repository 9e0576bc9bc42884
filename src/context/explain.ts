/**
 * `explain_symbol`'s answer: the symbol record, its source (capped), doc, enclosing
 * definition, members, direct callers and callees, reference count and candidates.
 *
 * @module
 */

import { type CallIndex, callIndexOf } from "../graph/calls.ts";
import { loadGraph } from "../graph/graph.ts";
import { graphSymbolTable, resolveSymbol } from "../graph/lookup.ts";
import { namesOf, type Sureness } from "../graph/names.ts";
import { referencesOf } from "../graph/references.ts";
import { isTestFile } from "../index/test_files.ts";
import type { Project } from "../project/project.ts";
import { CALLABLE_KINDS, type SymbolRecord } from "../types.ts";
import { numberedBody } from "../util/numbered_body.ts";
import { bodyLines, bodyOutline } from "../util/body_outline.ts";
import { DOC_LINES, hasMemberLine, MEMBER_NAMES, memberLine } from "../util/member_line.ts";
import { SourceReader } from "./source.ts";
import { tokenCounter } from "./tokens.ts";

/** Most source lines returned. */
export const MAX_SOURCE_LINES = 200;
/** Most callers and callees listed. */
export const MAX_NEIGHBOURS = 50;
/** Tokens the text of an explanation may take by default: body or call lines, callers' lines. */
export const EXPLAIN_TOKENS = 1000;
/**
 * Share of the budget the body may take before its call lines stand in for it: a body of
 * ~25 lines at the default budget. Longer, its call lines answer "what does it do and call"
 * in fewer characters than the body an assistant would otherwise read whole (issue 35).
 */
const BODY_SHARE = 0.3;
/** Share of the budget the call lines that stand in for a body may take. */
const CALLS_SHARE = 0.6;
/** The share of the budget a long body's outline may take, the lines deciding its flow too. */
const OUTLINE_SHARE = 0.85;
/**
 * An outline up to this many times its share is shown whole: cut, its last lines were what
 * two blind answerers asked about (nginx's TRACE check, 15 lines past the cut; issue 35).
 */
const WHOLE_PAST = 1.5;
/** Tokens a listed line takes besides its code (`- name file:line: `). */
const LINE_OVERHEAD = 10;
/** Longest line of code quoted (a call line, a caller's line). */
const MAX_QUOTE = 160;

/** A caller or callee: a name with a place, and how sure the call is. */
export interface Neighbour {
  name: string;
  file: string;
  line: number;
  resolution: Sureness;
  /** A caller's line of code at the call, within the budget ("" past it, and for callees). */
  text: string;
}

/** A call made in the symbol's body: its line of code and what it calls. */
export interface CallLine {
  line: number;
  /** The line of code, trimmed. */
  text: string;
  /** The callee's qualified name, or the call as written when it leaves the project. */
  callee: string;
  /** Where the callee is defined (null outside the project). */
  file: string | null;
  defLine: number | null;
  resolution: Sureness;
  /** A builtin or a library call. */
  external: boolean;
}

/** Options of {@link explainSymbol}. */
export interface ExplainOptions {
  /** Only look in this file or folder. */
  file?: string;
  /** Tokens the text may take ({@link EXPLAIN_TOKENS}). */
  maxTokens?: number;
}

/** What `explain_symbol` knows of one symbol. */
export interface Explanation {
  symbol: SymbolRecord;
  source: string;
  sourceTruncated: boolean;
  doc: string;
  parent: SymbolRecord | null;
  children: SymbolRecord[];
  /** Call sites: the calling symbol (or `<top level>`) and the line of the call. */
  callers: Neighbour[];
  callersTotal: number;
  /** Called symbols and where they are defined. */
  callees: Neighbour[];
  calleesTotal: number;
  /** Calls of its name through a receiver of unknown type that resolved to nothing. */
  unresolvedCandidates: number;
  references: number;
  candidates: SymbolRecord[];
  /**
   * What the text shows of the body: the source when it fits the budget's share, else the
   * lines of its calls (`calls`), so one answer tells what it does and calls.
   */
  body: "source" | "calls" | "members";
  /** Calls made in the body, in source order: all when the body is shown, within the budget else. */
  calls: CallLine[];
  callsTotal: number;
  /**
   * The last line of the body its outline reaches, when the lines that decide its flow alone
   * are over the budget (a 421-line method's outline was 140 lines, 8.9 KB, at 1,000 tokens).
   */
  outlineTo?: number;
}

/**
 * Explains the symbol `name` (plain or qualified), optionally within `file`.
 *
 * @example
 * ```ts
 * const e = await explainSymbol(project, "Session.request", { maxTokens: 1000 });
 * console.log(e.symbol.signature, e.callers.length);
 * ```
 */
export async function explainSymbol(
  project: Project,
  name: string,
  opts: ExplainOptions = {},
): Promise<Explanation> {
  const file = opts.file;
  const code = await loadGraph(project);
  const { symbol, candidates } = resolveSymbol(graphSymbolTable(code), name, { file });
  const reader = new SourceReader(project.root);
  const all = await reader.span(symbol.file, symbol.startLine, symbol.endLine);
  const cut = all.length > MAX_SOURCE_LINES;
  const shown = cut ? all.slice(0, MAX_SOURCE_LINES) : all;
  const source = shown.join("\n") +
    (cut
      ? `\n… (${all.length - MAX_SOURCE_LINES} more lines, ${
        symbol.startLine + MAX_SOURCE_LINES
      }–${symbol.endLine}; use get_context or read the file for the rest)`
      : "");

  const fileSymbols = code.byPath.get(symbol.file)?.symbols ?? [];
  const inside = new Set(
    fileSymbols.filter((s) =>
      s === symbol || (s.startLine >= symbol.startLine && s.endLine <= symbol.endLine &&
        s.line > symbol.line)
    ),
  );
  const parent = symbol.parent === null
    ? null
    : fileSymbols.find((s) =>
      s.qualifiedName === symbol.parent && s.startLine <= symbol.startLine &&
      s.endLine >= symbol.endLine
    ) ?? null;
  // Members inside the definition, and those its language declares beside it (Go methods,
  // Rust impl blocks), which the definition's lines do not hold.
  const children = [
    ...new Set([
      ...fileSymbols.filter((s) =>
        s.parent === symbol.qualifiedName && inside.has(s) && s !== symbol
      ),
      ...namesOf(code).allMembers(symbol).filter((s) => s !== symbol),
    ]),
  ];

  // Callers: calls for callables (its own recursive calls too), every use for types and
  // constants (not its own members' uses, such as a Go method's receiver); each says how sure.
  const memberNames = new Set(children.map((c) => c.qualifiedName));
  const calls = callIndexOf(code);
  // Uses by name too (`self.df.request_seen(…)` through an attribute of unknown type), as
  // `refs` counts them: without them an explained method said `References: 0` (issue 35).
  const uses = referencesOf(code, [symbol], true, true).filter((r) => r.kind !== "import");
  const callable = CALLABLE_KINDS.has(symbol.kind);
  const use = (r: (typeof uses)[number]): Neighbour => ({
    name: r.in ?? "<top level>",
    file: r.file,
    line: r.line,
    resolution: r.resolution,
    text: "",
  });
  const sites = callable
    ? calls.callersOf(symbol).map((c) => ({
      name: c.caller ? c.caller.qualifiedName : "<top level>",
      file: c.file.path,
      line: c.line,
      resolution: c.resolution,
      text: "",
    }))
    : [];
  const known = new Set(sites.map((c) => `${c.file}:${c.line}`));
  const byName = uses.filter((r) =>
    r.kind === "call" && r.resolution === "name" && !known.has(`${r.file}:${r.line}`)
  ).map(use);
  // Calls by name are callers only when no call resolves to it: beside resolved callers they
  // were mostly other classes' methods of that name (celery's `Scheduler.apply_async`: one
  // caller, then 13 `….apply_async(` of other types); they stay counted in the references.
  const callers: Neighbour[] = callable
    ? (sites.length > 0 ? sites : byName)
    // A type's subclasses first: what an answerer of "who extends it" needs named.
    : [...uses.filter((r) => r.kind === "inherit"), ...uses.filter((r) => r.kind !== "inherit")]
      .map(use).filter((r) =>
        !(r.file === symbol.file && r.line >= symbol.startLine && r.line <= symbol.endLine) &&
        !memberNames.has(r.name)
      );
  const calleeSet = new Map<SymbolRecord, Neighbour>();
  for (const s of inside) {
    for (const site of calls.callsFrom(s)) {
      for (const t of site.targets) {
        if (inside.has(t) || calleeSet.has(t)) continue;
        calleeSet.set(t, {
          name: t.qualifiedName,
          file: t.file,
          line: t.line,
          resolution: site.resolution,
          text: "",
        });
      }
    }
  }
  const callees = [...calleeSet.values()];
  const callLines = bodyCalls(calls, inside, all, symbol.startLine);
  // A call of an attribute (`self._chain(request)`) reaches what was assigned to it elsewhere
  // in the class (`self._chain = handler`): that line is its definition here.
  const assigned = await attributeAssignments(reader, callLines, parent ?? symbol);
  for (const c of callLines) {
    const a = c.file === null ? assigned.get(c.callee) : undefined;
    if (!a) continue;
    Object.assign(c, { callee: a.name, file: a.file, defLine: a.line, external: false });
    c.resolution = a.resolution;
    if (!callees.some((n) => n.name === a.name)) callees.push(a);
  }

  // The budget: the body when it fits its share, else its call lines; then callers' lines.
  const tokens = await tokenCounter();
  let budget = opts.maxTokens ?? EXPLAIN_TOKENS;
  // What the text shows of a body: numbered lines, without blanks and the docstring.
  const sourceTokens = tokens.count(numberedBody(shown.join("\n"), symbol.startLine, symbol.doc));
  // A type too long to show is its members, one line each: its methods' branches are what
  // `explain Type.method` is for (a class's outline of every method cost 12,531 characters).
  const body = sourceTokens <= budget * BODY_SHARE
    ? "source"
    : !callable && children.length > 0
    ? "members"
    : "calls";
  let shownCalls = callLines;
  let outlineTo: number | undefined;
  // What every text shows: its heading, the doc's first lines, the signature.
  budget -= tokens.count(symbol.doc.trim().split("\n").slice(0, DOC_LINES).join("\n")) +
    tokens.count(`${symbol.qualifiedName} ${symbol.file} ${symbol.signature}`) + LINE_OVERHEAD;
  // A type's members: their share, or what their names take when more.
  let memberShare = budget * CALLS_SHARE;
  const named = (list: { name: string; file: string; line: number }[]) =>
    list.slice(0, MEMBER_NAMES).reduce((n, m) => n + tokens.count(`${m.name} :${m.line}, `), 0);
  if (body === "source") {
    // The body, its members' names and its callees' places.
    budget -= sourceTokens + named(children) + named(callees) +
      callees.slice(0, MAX_NEIGHBOURS).reduce((n, c) => n + tokens.count(c.file), 0);
  } else if (body === "members") {
    memberShare = Math.max(memberShare, named(children) + 2 * LINE_OVERHEAD);
    shownCalls = [];
    budget -= memberShare;
  } else {
    // The body's outline (its call lines, the heads that enclose them, the exits in the blocks
    // shown) while it fits the body's share, whole call lines at a time: the lines that call
    // project symbols first, then those that only call libraries, shown in source order.
    const defs = children.map((c) => c.line);
    const lines = bodyLines(all, symbol.startLine, symbol.line - symbol.startLine + 1, defs);
    const byLine = Map.groupBy(callLines, (c) => c.line);
    const textOf = (line: number) => byLine.get(line)?.[0].text ?? "";
    const order = [...byLine.values()].sort((a, b) =>
      Number(a.every((c) => !c.file)) - Number(b.every((c) => !c.file))
    );
    const cost = (kept: Set<number>) =>
      bodyOutline(lines, kept, textOf, true).reduce(
        (n, l) => n + tokens.count(l.text) + LINE_OVERHEAD,
        0,
      );
    const room = budget;
    const kept = new Set<number>();
    // The lines that decide the flow are shown first (within the budget, below); call lines
    // within the share.
    const flow = cost(kept);
    const share = budget * CALLS_SHARE + flow;
    let spent = flow;
    for (const group of order) {
      kept.add(group[0].line);
      const next = cost(kept);
      if (next > share) {
        kept.delete(group[0].line);
        break;
      }
      spent = next;
    }
    shownCalls = callLines.filter((c) => kept.has(c.line));
    budget -= spent - flow;
    // The flow lines too are within the budget: past its share the outline stops and says
    // where, and the callers have what is left.
    if (spent > room * OUTLINE_SHARE * WHOLE_PAST) {
      let cost = 0;
      for (const l of bodyOutline(lines, kept, textOf, true)) {
        cost += tokens.count(l.text) + LINE_OVERHEAD;
        if (cost > room * OUTLINE_SHARE) {
          outlineTo = l.line - 1;
          break;
        }
      }
      shownCalls = shownCalls.filter((c) => c.line <= outlineTo!);
      budget = room * (1 - OUTLINE_SHARE);
    }
  }
  // Callers in code (subclasses first) named while they fit, `name :line` under their file;
  // then, while the budget lasts, with their line of code. Test files' are one count.
  const inCode = callers.filter((c) => !isTestFile(c.file)).slice(0, MAX_NEIGHBOURS);
  budget -= LINE_OVERHEAD; // their heading and the counts under them
  const listed: Neighbour[] = [];
  const files = new Set<string>();
  for (const c of inCode) {
    const cost = tokens.count(`${c.name} :${c.line}`) + 2 +
      (files.has(c.file) ? 0 : tokens.count(c.file) + 2);
    if (cost > budget) break;
    budget -= cost;
    files.add(c.file);
    listed.push(c);
  }
  for (const c of listed) {
    const text = quote((await reader.span(c.file, c.line, c.line))[0] ?? "");
    const cost = tokens.count(text) + LINE_OVERHEAD;
    if (cost > budget) break;
    budget -= cost;
    c.text = text;
  }
  const inTests = callers.filter((c) => isTestFile(c.file));
  const shownCallers = [...listed, ...inTests].slice(0, MAX_NEIGHBOURS);
  // A type's members: their names, and the lines of its callables within their share and what
  // the callers left of the budget (the others' signatures blank: the text names them only).
  let shownChildren = children;
  if (body === "members") {
    // Less their heading and a heading a kind.
    const left = memberShare + budget - 2 * LINE_OVERHEAD;
    const kept = membersWithin(children, left, (t) => tokens.count(t));
    shownChildren = children.map((c) => kept.has(c) ? c : { ...c, signature: "" });
  }
  return {
    symbol,
    source,
    sourceTruncated: cut,
    doc: symbol.doc,
    parent,
    children: shownChildren,
    callers: shownCallers,
    callersTotal: callers.length,
    callees: callees.slice(0, MAX_NEIGHBOURS),
    calleesTotal: callees.length,
    unresolvedCandidates: callable ? calls.candidatesOf(symbol).length : 0,
    references: uses.length,
    candidates,
    body,
    calls: shownCalls,
    callsTotal: callLines.length,
    ...(outlineTo === undefined ? {} : { outlineTo }),
  };
}

/**
 * The members of a type that get a line of their own within `share` tokens, once the compact
 * names of all of them (at most {@link MEMBER_NAMES}) are paid for: public callables first
 * (a constructor, names without a leading `_`), then the others, each in source order.
 */
function membersWithin(
  members: SymbolRecord[],
  share: number,
  count: (text: string) => number,
): Set<SymbolRecord> {
  let left = share - members.slice(0, MEMBER_NAMES).reduce(
    (n, m) => n + count(`${m.name} :${m.line}, `),
    0,
  );
  const callables = members.filter(hasMemberLine);
  const isPublic = (m: SymbolRecord) => m.kind === "constructor" || !m.name.startsWith("_");
  const kept = new Set<SymbolRecord>();
  for (const m of [...callables.filter(isPublic), ...callables.filter((m) => !isPublic(m))]) {
    const cost = count(memberLine(m)) + 2;
    if (cost > left) break;
    left -= cost;
    kept.add(m);
  }
  return kept;
}

/** `self.name(` or `this.name(` in a line of code: a call of an attribute. */
const ATTRIBUTE_CALL = /\b(self|this)\.([A-Za-z_$][\w$]*)\s*\(/g;

/**
 * The attributes the calls in `lines` call (`self._chain(request)`, which the graph finds no
 * definition of) that are assigned in `owner`'s lines (`self._chain = handler`), by the name
 * the call is written with: each as a callee at its first assignment, with its line of code.
 */
async function attributeAssignments(
  reader: SourceReader,
  lines: CallLine[],
  owner: SymbolRecord,
): Promise<Map<string, Neighbour>> {
  const out = new Map<string, Neighbour>();
  const wanted = new Map<string, string>();
  for (const c of lines) {
    if (c.file !== null) continue;
    for (const m of c.text.matchAll(ATTRIBUTE_CALL)) {
      if (m[2] === c.callee || c.callee.endsWith(`.${m[2]}`)) wanted.set(m[2], c.callee);
    }
  }
  if (!wanted.size) return out;
  const text = await reader.span(owner.file, owner.startLine, owner.endLine);
  text.forEach((line, i) => {
    const m = line.match(/^\s*(self|this)\.([A-Za-z_$][\w$]*)\s*=(?!=)/);
    const written = m && wanted.get(m[2]);
    if (!m || !written || out.has(written)) return;
    out.set(written, {
      name: `${m[1]}.${m[2]}`,
      file: owner.file,
      line: owner.startLine + i,
      // Through the receiver's type (its class), as far as an assignment tells.
      resolution: "inferred",
      text: quote(line),
    });
  });
  return out;
}

/** A line of code trimmed and cut to {@link MAX_QUOTE} characters. */
function quote(line: string): string {
  const t = line.trim();
  return t.length > MAX_QUOTE ? `${t.slice(0, MAX_QUOTE - 1)}…` : t;
}

/**
 * The calls made in the body (`inside`: the symbol and what it nests), in source order, each
 * with its line of code (`lines`: the body's lines from `startLine`) and what it reaches.
 */
function bodyCalls(
  calls: CallIndex,
  inside: Set<SymbolRecord>,
  lines: string[],
  startLine: number,
): CallLine[] {
  const out: CallLine[] = [];
  for (const s of inside) {
    for (const site of calls.callsFrom(s)) {
      const text = quote(lines[site.line - startLine] ?? "");
      if (site.outside) {
        out.push({
          line: site.line,
          text,
          callee: site.written,
          file: null,
          defLine: null,
          resolution: site.resolution,
          external: site.outside !== "unknown",
        });
      }
      for (const t of site.targets) {
        out.push({
          line: site.line,
          text,
          callee: t.qualifiedName,
          file: t.file,
          defLine: t.line,
          resolution: site.resolution,
          external: false,
        });
      }
    }
  }
  return out.sort((a, b) => a.line - b.line);
}
