/**
 * `explain_symbol`'s answer: the symbol record, its source (capped), doc, enclosing
 * definition, members, direct callers and callees, reference count and candidates.
 *
 * @module
 */

import { resolveSymbol, symbolTable } from "../graph/lookup.ts";
import type { Project } from "../index/project.ts";
import type { SymbolKind, SymbolRecord } from "../types.ts";
import { graphFor } from "./graph.ts";
import { SourceReader } from "./source.ts";

/** Most source lines returned. */
export const MAX_SOURCE_LINES = 200;
/** Most callers and callees listed. */
export const MAX_NEIGHBOURS = 50;

/** A caller or callee: a name with a place. */
export interface Neighbour {
  name: string;
  file: string;
  line: number;
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
  references: number;
  candidates: SymbolRecord[];
}

const CALLABLE = new Set<SymbolKind>(["function", "method", "constructor", "macro"]);

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
  const index = await project.index();
  const { symbol, candidates } = resolveSymbol(symbolTable(index), name, { file });
  const graph = await graphFor(project, index);
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

  const fileSymbols = index.symbolsByFile.get(symbol.file) ?? [];
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
  const children = fileSymbols.filter((s) =>
    s.parent === symbol.qualifiedName && inside.has(s) && s !== symbol
  );

  // Callers: calls for callables, every use for types and constants.
  const callable = CALLABLE.has(symbol.kind);
  const uses = graph.usesOf(symbol).filter((u) =>
    !inside.has(u.from as SymbolRecord) && (!callable || u.kind === "call")
  );
  const callers = uses.map((u) => ({
    name: u.from ? u.from.qualifiedName : "<top level>",
    file: u.file,
    line: u.line,
  }));
  const calleeSet = new Map<SymbolRecord, Neighbour>();
  for (const s of inside) {
    for (const u of graph.usedBy(s)) {
      if (u.kind !== "call" || inside.has(u.to) || calleeSet.has(u.to)) continue;
      calleeSet.set(u.to, { name: u.to.qualifiedName, file: u.to.file, line: u.to.line });
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
    references: graph.referenceCount(symbol),
    candidates,
  };
}
