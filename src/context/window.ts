/**
 * `get_context`'s pipeline, in the shape of Aider's repo map: resolve the symbol → collect
 * what surrounds the definition (its callees, the types it uses, its callers' call sites,
 * its file's imports, its enclosing definition and sibling members; `window_collect.ts`)
 * → rank it (graph distance × PageRank over the reference graph) → render it as Markdown
 * and fit it to the token budget (`window_render.ts`).
 *
 * @module
 */

import { graphSymbolTable, resolveSymbol } from "../graph/lookup.ts";
import { loadGraph } from "../graph/graph.ts";
import type { LoadedIndex, Project } from "../project/project.ts";
import type { SymbolRecord } from "../types.ts";
import { graphFor } from "./graph.ts";
import { symbolRanks } from "./rank.ts";
import { commentLeader, docCommentStart, docSummary, SourceReader } from "./source.ts";
import { tokenCounter } from "./tokens.ts";
import { collect, type Item, signatureLines } from "./window_collect.ts";
import { type ContextWindow, type DefinitionLines, renderWindow } from "./window_render.ts";

/** Default budget of a window, in tokens. */
export const DEFAULT_MAX_TOKENS = 2000;
/** Largest budget a window may be asked for. */
export const MAX_TOKENS_LIMIT = 32000;

export type { ContextSource, ContextWindow } from "./window_render.ts";

/** Rank: graph distance is in the base score; PageRank of the symbol behind an item scales it. */
function rankItems(items: Item[], centrality: (s: SymbolRecord) => number): Item[] {
  for (const it of items) {
    const pr = it.symbol ? centrality(it.symbol) : 0.5;
    it.score *= 0.5 + 0.5 * Math.sqrt(pr);
  }
  return [...items].sort((a, b) =>
    Number(b.first ?? false) - Number(a.first ?? false) || b.score - a.score ||
    (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line)
  );
}

/** The definition's lines: doc comment above, then the source (or an outline when asked). */
async function definitionLines(
  index: LoadedIndex,
  target: SymbolRecord,
  reader: SourceReader,
): Promise<DefinitionLines> {
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
  const [graph, counter, code, ranks] = await Promise.all([
    graphFor(project, index),
    tokenCounter(),
    loadGraph(project),
    symbolRanks(project, index),
  ]);
  // The code graph's table: a member asked through a subclass resolves through its bases.
  const { symbol: target, candidates } = resolveSymbol(
    graphSymbolTable(code),
    opts.symbolName,
    { file: opts.filePath },
  );
  const reader = new SourceReader(project.root);

  const { rank, max: top, idOf } = ranks;
  const centrality = (s: SymbolRecord) => rank[idOf(s)] / top;
  const items = await collect(index, graph, target, reader, centrality);
  const ranked = rankItems(items, centrality);
  const def = await definitionLines(index, target, reader);
  return renderWindow(target, def, ranked, candidates, max, counter);
}
