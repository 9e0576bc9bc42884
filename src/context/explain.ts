/**
 * `explain_symbol`'s answer: the symbol record, its source (capped), doc, enclosing
 * definition, members, direct callers and callees, reference count and candidates.
 *
 * @module
 */

import { callIndexOf } from "../graph/calls.ts";
import { loadGraph } from "../graph/graph.ts";
import { graphSymbolTable, resolveSymbol } from "../graph/lookup.ts";
import { namesOf, type Sureness } from "../graph/names.ts";
import { referencesOf } from "../graph/references.ts";
import type { Project } from "../project/project.ts";
import { CALLABLE_KINDS, type SymbolRecord } from "../types.ts";
import { SourceReader } from "./source.ts";

/** Most source lines returned. */
export const MAX_SOURCE_LINES = 200;
/** Most callers and callees listed. */
export const MAX_NEIGHBOURS = 50;

/** A caller or callee: a name with a place, and how sure the call is. */
export interface Neighbour {
  name: string;
  file: string;
  line: number;
  resolution: Sureness;
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
}

/**
 * Explains the symbol `name` (plain or qualified), optionally within `file`.
 *
 * @example
 * ```ts
 * const e = await explainSymbol(project, "Session.request");
 * console.log(e.symbol.signature, e.callers.length);
 * ```
 */
export async function explainSymbol(
  project: Project,
  name: string,
  file?: string,
): Promise<Explanation> {
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
  const uses = referencesOf(code, [symbol], true).filter((r) => r.kind !== "import");
  const callable = CALLABLE_KINDS.has(symbol.kind);
  const callers: Neighbour[] = callable
    ? calls.callersOf(symbol).map((c) => ({
      name: c.caller ? c.caller.qualifiedName : "<top level>",
      file: c.file.path,
      line: c.line,
      resolution: c.resolution,
    }))
    : uses.map((r) => ({
      name: r.in ?? "<top level>",
      file: r.file,
      line: r.line,
      resolution: r.resolution,
    })).filter((r) =>
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
        });
      }
    }
  }
  const callees = [...calleeSet.values()];
  return {
    symbol,
    source,
    sourceTruncated: cut,
    doc: symbol.doc,
    parent,
    children,
    callers: callers.slice(0, MAX_NEIGHBOURS),
    callersTotal: callers.length,
    callees: callees.slice(0, MAX_NEIGHBOURS),
    calleesTotal: callees.length,
    unresolvedCandidates: callable ? calls.candidatesOf(symbol).length : 0,
    references: uses.length,
    candidates,
  };
}
