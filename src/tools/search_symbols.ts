/**
 * `search_symbols`: fuzzy symbol search across the project, like LSP workspace/symbol. A
 * query that names a symbol (as explain_symbol and the other symbol tools would resolve it)
 * lists that definition and its candidates first.
 */

import { z } from "npm:zod@4.1.9";
import { kindRank, resolveSymbol, type SymbolTable, symbolTable } from "../graph/lookup.ts";
import { fuzzyMatch } from "../search/fuzzy.ts";
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
    const hits: Hit[] = [];
    for (const s of index.symbols) {
      if (!inScope(s)) continue;
      if (q === "") {
        hits.push({ s, tier: 0, score: 0 });
        continue;
      }
      const m = qualified
        ? fuzzyMatch(q.replaceAll("::", "."), s.qualifiedName)
        : fuzzyMatch(q, s.name);
      if (m) hits.push({ s, tier: m.tier, score: m.score });
    }
    if (q !== "") {
      const named = resolvedFirst(symbolTable(index), q, prefix, inScope, hits);
      hits.sort((a, b) =>
        (named.get(a.s) ?? named.size) - (named.get(b.s) ?? named.size) ||
        a.tier - b.tier ||
        b.score - a.score ||
        kindRank(a.s.kind) - kindRank(b.s.kind) ||
        Number(a.s.parent !== null) - Number(b.s.parent !== null) ||
        a.s.name.length - b.s.name.length ||
        a.s.file.length - b.s.file.length ||
        (a.s.file < b.s.file ? -1 : a.s.file > b.s.file ? 1 : a.s.line - b.s.line)
      );
    }
    const start = offset ?? 0;
    const top = hits.slice(start, start + (limit ?? 20));
    return {
      symbols: top.map((h) => ({
        ...toWireSymbol(h.s),
        score: round(1 - h.tier / 5 + h.score / 10),
      })),
      total: hits.length,
    };
  },
});

type Hit = { s: SymbolRecord; tier: number; score: number };

/**
 * The definitions `query` resolves to (the shared resolver, as the other symbol tools read
 * a name), by their place in its order; added to `hits` when the fuzzy match missed them
 * (a module path, `Cls#m`). Empty when the query names no symbol.
 */
function resolvedFirst(
  table: SymbolTable,
  query: string,
  prefix: string,
  inScope: (s: SymbolRecord) => boolean,
  hits: Hit[],
): Map<SymbolRecord, number> {
  let matches: SymbolRecord[];
  try {
    matches = resolveSymbol(table, query, { file: prefix || undefined }).matches.filter(inScope);
  } catch {
    return new Map();
  }
  const order = new Map(matches.map((s, i) => [s, i]));
  const present = new Set(hits.map((h) => h.s));
  for (const s of matches) if (!present.has(s)) hits.push({ s, tier: 0, score: 1 });
  return order;
}

function round(x: number): number {
  return Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;
}
