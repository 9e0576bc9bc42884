/**
 * `search_symbols`: fuzzy symbol search across the project, like LSP workspace/symbol.
 */

import { z } from "zod";
import { fuzzyMatch } from "../search/fuzzy.ts";
import type { SymbolRecord } from "../types.ts";
import { symbolSchema, toWireSymbol } from "./schemas.ts";
import { defineTool } from "./tool.ts";

const KIND_RANK: Record<string, number> = {
  class: 0,
  interface: 0,
  struct: 0,
  trait: 0,
  enum: 1,
  type: 1,
  function: 1,
  method: 2,
  constructor: 2,
  module: 2,
  namespace: 2,
  macro: 3,
  constant: 3,
  field: 4,
  variable: 4,
  section: 5,
};

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
    const hits: Array<{ s: SymbolRecord; tier: number; score: number }> = [];
    for (const s of index.symbols) {
      if (kind && s.kind !== kind) continue;
      if (prefix && !(s.file === prefix || s.file.startsWith(prefix + "/"))) continue;
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
      hits.sort((a, b) =>
        a.tier - b.tier ||
        b.score - a.score ||
        (KIND_RANK[a.s.kind] ?? 6) - (KIND_RANK[b.s.kind] ?? 6) ||
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

function round(x: number): number {
  return Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;
}
