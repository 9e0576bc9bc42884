/**
 * `search_symbols`: fuzzy symbol search across the project, like LSP workspace/symbol. A
 * query that names a symbol (as explain_symbol and the other symbol tools would resolve it)
 * lists that definition and its candidates first.
 */

import { z } from "npm:zod@4.1.9";
import { kindRank, resolveMatches, type SymbolTable, symbolTable } from "../graph/lookup.ts";
import { fuzzyMatch } from "../search/fuzzy.ts";
import { rankNames } from "../search/name_index.ts";
import type { SymbolRecord } from "../types.ts";
import { symbolSchema, toWireSymbol } from "./schemas.ts";
import { defineTool } from "./tool.ts";

/** The `search_symbols` tool. */
export const searchSymbolsTool = defineTool({
  name: "search_symbols",
  description:
    "Find symbols by name, fuzzily (exact > case-insensitive > prefix > camelCase/snake_case parts > subsequence). A dotted query matches qualified names (`Session.req`).",
  input: z.object({
    query: z.string().max(512).optional().describe(
      "Name or part of it, e.g. `parseConf`, `p_c`, `Session.request`; empty or absent lists every symbol in file order",
    ),
    kind: z.string().optional().describe(
      "Only this kind (function, method, class, interface, struct, enum, trait, type, constant, …)",
    ),
    limit: z.number().int().min(1).max(500).optional().describe("Most results (1–500, default 20)"),
    offset: z.number().int().min(0).optional().describe("Skip this many results (paging)"),
    path_prefix: z.string().optional().describe("Only files (or folders) under this path"),
  }),
  output: z.object({
    symbols: z.array(symbolSchema.extend({ score: z.number() })),
    total: z.number().int(),
  }),
  handler: async ({ query, kind, limit, offset, path_prefix }, { project }) => {
    const index = await project.index();
    const q = (query ?? "").trim();
    const qualified = /[.:]/.test(q);
    const prefix = path_prefix ? project.resolvePath(path_prefix, "path_prefix") : "";
    const inScope = (s: SymbolRecord) =>
      (!kind || s.kind === kind) &&
      (!prefix || s.file === prefix || s.file.startsWith(prefix + "/"));
    const start = offset ?? 0;
    const end = start + (limit ?? 20);
    const symbols = index.symbols;
    if (q === "") {
      const top: SymbolRecord[] = [];
      let total = 0;
      for (const s of symbols) {
        if (!inScope(s)) continue;
        if (total >= start && total < end) top.push(s);
        total++;
      }
      return { symbols: top.map((s) => ({ ...toWireSymbol(s), score: 1 })), total };
    }
    const field = qualified ? "qualifiedName" : "name";
    const fq = qualified ? q.replaceAll("::", ".") : q;
    const named = resolvedFirst(symbolTable(index), q, prefix, inScope);
    const isNamed = new Set(named);
    const keep = kind || prefix ? (i: number) => inScope(symbols[i]) : undefined;
    const ranked = rankNames(symbols, field, fq, end + named.length, keep);
    const rest = ranked.hits
      .map((h) => ({ s: symbols[h.index], tier: h.tier, score: h.score }))
      .filter((h) => !isNamed.has(h.s))
      .sort((a, b) =>
        a.tier - b.tier ||
        b.score - a.score ||
        kindRank(a.s.kind) - kindRank(b.s.kind) ||
        Number(a.s.parent !== null) - Number(b.s.parent !== null) ||
        a.s.name.length - b.s.name.length ||
        a.s.file.length - b.s.file.length ||
        (a.s.file < b.s.file ? -1 : a.s.file > b.s.file ? 1 : a.s.line - b.s.line)
      );
    // A resolved definition comes first with its own match, or as an exact one when the
    // fuzzy match missed it (a module path, `Cls#m`).
    const first: Hit[] = named.map((s) => fuzzyMatch(fq, s[field]) ?? { tier: 0, score: 1 })
      .map((m, i) => ({ s: named[i], tier: m.tier, score: m.score }));
    const missed = named.filter((s) => !fuzzyMatch(fq, s[field])).length;
    const top = [...first, ...rest].slice(start, end);
    return {
      symbols: top.map((h) => ({
        ...toWireSymbol(h.s),
        score: round(1 - h.tier / 5 + h.score / 10),
      })),
      total: ranked.total + missed,
    };
  },
});

type Hit = { s: SymbolRecord; tier: number; score: number };

/**
 * The definitions `query` resolves to (the shared resolver, as the other symbol tools read
 * a name), in its order, those in scope only; empty when the query names no symbol.
 */
function resolvedFirst(
  table: SymbolTable,
  query: string,
  prefix: string,
  inScope: (s: SymbolRecord) => boolean,
): SymbolRecord[] {
  try {
    return resolveMatches(table, query, { file: prefix || undefined }).filter(inScope);
  } catch {
    return [];
  }
}

function round(x: number): number {
  return Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;
}
