/**
 * The name index behind search_symbols against a plain scan: every symbol asked with
 * fuzzyMatch, sorted by tier and score. Same count, same tiers and scores, and exactly the
 * symbols as good as the `need`-th best (ties included).
 */

import assert from "node:assert/strict";
import { rankNames } from "../src/search/name_index.ts";
import { columnsOf } from "../src/index/symbol_columns_builder.ts";
import { fuzzyMatch } from "../src/search/fuzzy.ts";
import type { SymbolRecord } from "../src/types.ts";
import { withExecutor } from "./helpers.ts";

/** A deterministic mix of name shapes: snake, camel, upper, digits, doubled, non-ASCII. */
function names(count: number): string[] {
  const words = [
    "init",
    "spin",
    "lock",
    "irq",
    "save",
    "k",
    "malloc",
    "alloc",
    "page",
    "get",
    "Set",
    "HTTP",
    "server",
    "x",
    "list",
    "add",
    "tail",
    "v2",
    "café",
    "rcu",
    "read",
    "_",
    "Init",
    "MAP",
  ];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const parts = Array.from(
      { length: 1 + Math.floor(next() * 4) },
      () => words[Math.floor(next() * words.length)],
    );
    const style = next();
    out.push(
      style < 0.4
        ? parts.join("_")
        : style < 0.7
        ? parts.map((p, j) => (j ? p[0].toUpperCase() + p.slice(1) : p)).join("")
        : style < 0.8
        ? parts.join("_").toUpperCase()
        : parts.join(""),
    );
  }
  return out;
}

function symbol(name: string, i: number): SymbolRecord {
  const parent = i % 5 === 0 ? "Outer" : null;
  return {
    name,
    qualifiedName: parent ? `${parent}.${name}` : name,
    kind: i % 3 ? "function" : "struct",
    file: `dir${i % 4}/f${i % 11}.c`,
    line: i,
    startLine: i,
    endLine: i,
    signature: "",
    doc: "",
    parent,
    language: "c",
  };
}

Deno.test("rankNames finds what a scan of every symbol finds, and the best `need` of it", () => {
  const symbols = names(3000).map(symbol);
  // One entry per symbol keeps the list order (its files are not contiguous).
  const columns = columnsOf(symbols.map((s) => [s.file, [s]]));
  const queries = [
    "init",
    "Init",
    "spin_lock_irqsave",
    "sli",
    "kmalloc",
    "k",
    "x",
    "MAP",
    "café",
    "getSet",
    "g_s",
    "zzz",
    "_",
    "http_server",
    "HTTPServer",
    "v2",
    "rcu_read",
    "Outer.init",
    "outer.lock",
    "list_add_tail",
    "initspin",
  ];
  for (const query of queries) {
    for (const field of ["name", "qualifiedName"] as const) {
      for (const scope of [undefined, (i: number) => symbols[i].kind === "struct"]) {
        const all = symbols
          .map((s, index) => ({
            index,
            m: !scope || scope(index) ? fuzzyMatch(query, s[field]) : null,
          }))
          .filter((h) => h.m)
          .map(({ index, m }) => ({ index, tier: m!.tier, score: m!.score }));
        const best = [...all].sort((a, b) => a.tier - b.tier || b.score - a.score);
        for (const need of [1, 20, 75, 5000]) {
          const got = rankNames(columns, field, query, need, scope);
          const what = `${query} ${field} need ${need}`;
          assert.equal(got.total, all.length, what);
          const last = best[Math.min(need, best.length) - 1];
          const want = last
            ? all.filter((h) =>
              h.tier < last.tier || (h.tier === last.tier && h.score >= last.score)
            )
            : [];
          assert.deepEqual(got.hits, want, what);
        }
      }
    }
  }
});

Deno.test("search_symbols pages through one order: every page is a slice of the whole list", async () => {
  const body = names(400).map((n, i) => `int ${n}_${i % 7}(void) { return ${i}; }\n`).join("");
  await withExecutor({ "a.c": body, "sub/b.c": body.replaceAll("int ", "long ") }, async (ex) => {
    for (const query of ["init", "lock", "k", "s_l", "MAP", "zzz"]) {
      const call = async (args: Record<string, unknown>) => {
        const r = await ex.execute({ tool_name: "search_symbols", arguments: { query, ...args } });
        assert.ok(r.success, r.error ?? "");
        return r.result_payload as unknown as {
          symbols: { file: string; line: number; score: number }[];
          total: number;
        };
      };
      const whole = await call({ limit: 500 });
      const paged = [];
      for (let offset = 0; offset < Math.min(whole.total, 500); offset += 7) {
        const page = await call({ limit: 7, offset });
        assert.equal(page.total, whole.total, query);
        paged.push(...page.symbols);
      }
      assert.deepEqual(paged, whole.symbols, query);
      if (query.length > 3 || query === "k") assert.ok(whole.total > 7, `${query}: ${whole.total}`);
    }
  });
});
