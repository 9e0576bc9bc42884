/**
 * `search_symbols`: fuzzy symbol search across the project, like LSP workspace/symbol. A
 * query that names a symbol (as explain_symbol and the other symbol tools would resolve it)
 * lists that definition and its candidates first.
 */

import {
  isDeclarationFile,
  kindRank,
  resolveMatches,
  type SymbolTable,
  symbolTable,
} from "../../graph/lookup.ts";
import { fuzzyMatch } from "../../search/fuzzy.ts";
import { rankNames } from "../../search/name_index.ts";
import type { SymbolRecord } from "../../types.ts";
import { toWireSymbol } from "../schemas.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { render } from "./render.ts";
import { input, output } from "./schema.ts";

/** The `search_symbols` tool. */
export const searchSymbolsTool = defineTool({
  name: "search_symbols",
  description: "Find symbols by name, fuzzily; `Cls.meth` matches qualified names.",
  input,
  output,
  annotations: READ_ONLY,
  handler: async ({ query, kind, limit, offset, path_prefix }, { project }) => {
    const index = await project.index();
    const cols = index.columns;
    const q = (query ?? "").trim();
    const qualified = /[.:]/.test(q);
    const prefix = path_prefix ? project.resolvePath(path_prefix, "path_prefix") : "";
    // The files under the prefix, once: a symbol is asked about its file's flag.
    const fileIn = prefix
      ? Uint8Array.from(cols.files, (f) => Number(f === prefix || f.startsWith(prefix + "/")))
      : null;
    const keep = kind || prefix
      ? (i: number) => (!kind || cols.kindOf(i) === kind) && (!fileIn || fileIn[cols.file[i]] === 1)
      : undefined;
    const inScope = (s: SymbolRecord) =>
      (!kind || s.kind === kind) &&
      (!prefix || s.file === prefix || s.file.startsWith(prefix + "/"));
    const start = offset ?? 0;
    const end = start + (limit ?? 20);
    if (q === "") {
      const top: SymbolRecord[] = [];
      let total = 0;
      for (let i = 0; i < cols.count; i++) {
        if (keep && !keep(i)) continue;
        if (total >= start && total < end) top.push(cols.record(i));
        total++;
      }
      return { symbols: top.map((s) => ({ ...toWireSymbol(s), score: 1 })), total };
    }
    const field = qualified ? "qualifiedName" : "name";
    const fq = qualified ? q.replaceAll("::", ".") : q;
    const named = resolvedFirst(symbolTable(index), q, prefix, inScope);
    // Their places in the list (the resolver hands out the columns' own records).
    const isNamed = new Set(named.map((s) => {
      const f = cols.fileIndex(s.file);
      return f < 0 ? -1 : cols.fileStart[f] + cols.fileRecords(f).indexOf(s);
    }));
    const ranked = rankNames(cols, field, fq, end + named.length, keep);
    const rest = ranked.hits
      .filter((h) => !isNamed.has(h.index))
      .sort((a, b) => {
        const x = a.index;
        const y = b.index;
        if (a.tier !== b.tier) return a.tier - b.tier;
        if (a.score !== b.score) return b.score - a.score;
        const fx = cols.fileOf(x);
        const fy = cols.fileOf(y);
        return Number(isDeclarationFile(fx)) - Number(isDeclarationFile(fy)) ||
          kindRank(cols.kindOf(x)) - kindRank(cols.kindOf(y)) ||
          Number(cols.hasParent(x)) - Number(cols.hasParent(y)) ||
          cols.nameOf(x).length - cols.nameOf(y).length ||
          fx.length - fy.length ||
          (fx < fy ? -1 : fx > fy ? 1 : cols.line[x] - cols.line[y]);
      })
      .map((h) => ({ s: cols.record(h.index), tier: h.tier, score: h.score }));
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
  render,
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
