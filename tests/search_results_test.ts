/**
 * Search, what a result is: the member that matched, code before docs and tests (scope),
 * exact and regex modes, and the second stage (rerank).
 */

import assert from "node:assert/strict";
import { clearQueryVectorCache, searchProject } from "../src/search/hybrid.ts";
import { pointAtMember } from "../src/search/members.ts";
import {
  DEFAULT_RERANK,
  rerank,
  RERANK_FEATURES,
  rerankFeatures,
  type RerankInput,
} from "../src/search/rerank.ts";
import { type ChunkTable, newChunkTable } from "../src/search/table.ts";
import { createExecutor } from "../src/tools/executor.ts";
import type { ChunkRecord, SymbolRecord } from "../src/types.ts";
import { withProject } from "./search_fixtures.ts";

/** A project with a class of small methods, TS overloads, docs and tests. */
const SCOPED: Record<string, string> = {
  "src/Cache.java": `public class Cache {
    private final java.util.Map<String, String> entries = new java.util.HashMap<>();

    public String lookup(String key) {
        return entries.get(key);
    }

    public void evictExpiredEntries(long now) {
        entries.entrySet().removeIf(e -> e.getValue().isEmpty() && now > 0);
    }

    public int size() {
        return entries.size();
    }
}
`,
  "src/range.ts": `export function range(start: number): number[];
export function range(start: number, count: number): number[];
export function range(start: number, count = 10): number[] {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(start + i);
  return out;
}
`,
  "src/retry.ts":
    `export async function retryWithBackoff<T>(request: () => Promise<T>, attempts = 3): Promise<T> {
  let delay = 100;
  for (let i = 0; ; i++) {
    try {
      return await request();
    } catch (failed) {
      if (i + 1 >= attempts) throw failed;
      await new Promise((r) => setTimeout(r, delay));
      delay *= 2;
    }
  }
}
`,
  "docs/retries.md": `# Retries

## Retry a failed request with backoff

A failed request is retried with an exponential backoff: the delay doubles after each
failed attempt, and the request is retried at most three times.
`,
  "tests/retry_test.ts": `import { retryWithBackoff } from "../src/retry.ts";
Deno.test("retry a failed request with backoff", async () => {
  await retryWithBackoff(() => Promise.resolve(1));
});
`,
};

Deno.test("results point at the member that matched; overloads at their implementation", async () => {
  await withProject("none", async (p) => {
    const r = await searchProject(p, "evict expired entries", { mode: "lexical" });
    assert.equal(r.snippets[0].file, "src/Cache.java");
    assert.equal(r.snippets[0].symbol, "Cache.evictExpiredEntries");
    assert.equal(r.snippets[0].kind, "method");
    assert.equal(r.snippets[0].line, 8);
    assert.equal(r.snippets[0].end_line, 10);
    assert.ok(r.snippets[0].snippet.includes("removeIf"));
    assert.ok(!r.snippets[0].snippet.includes("lookup"));
    // A word of the class head alone: the class itself.
    const head = await searchProject(p, "Cache HashMap", { mode: "lexical" });
    assert.equal(head.snippets[0].symbol, "Cache");
    assert.equal(head.snippets[0].line, 1);

    const o = await searchProject(p, "range start count", { mode: "lexical" });
    assert.equal(o.snippets[0].file, "src/range.ts");
    assert.equal(o.snippets[0].line, 3);
    assert.equal(o.snippets[0].end_line, 7);
    assert.ok(o.snippets[0].snippet.includes("out.push"));
  }, SCOPED);
});

Deno.test("hybrid: a class chunk points at the member the query's meaning matches", async () => {
  await withProject("codectx-code", async (p) => {
    const r = await searchProject(p, "drop the cache entries that have expired", {
      wait_for_vectors: true,
    });
    const hit = r.snippets.find((s) => s.file === "src/Cache.java");
    assert.ok(hit, JSON.stringify(r.snippets));
    assert.equal(hit.symbol, "Cache.evictExpiredEntries");
    assert.equal(hit.line, 8);
    assert.equal(hit.end_line, 10);
    const size = await searchProject(p, "how many entries the cache holds", {
      wait_for_vectors: true,
    });
    const s = size.snippets.find((x) => x.file === "src/Cache.java");
    assert.equal(s?.symbol, "Cache.size");
  }, SCOPED);
});

Deno.test("hybrid: members' vectors kept from an earlier search point as fresh ones do", async () => {
  await withProject("codectx-code", async (p) => {
    const ask = async (query: string) =>
      (await searchProject(p, query, { wait_for_vectors: true })).snippets;
    clearQueryVectorCache();
    const fresh = await ask("drop the cache entries that have expired");
    const other = await ask("how many entries the cache holds");
    // The same members again, their vectors kept: the same items, scores and spans.
    assert.deepEqual(await ask("drop the cache entries that have expired"), fresh);
    assert.deepEqual(await ask("how many entries the cache holds"), other);
    assert.equal(
      fresh.find((s) => s.file === "src/Cache.java")?.symbol,
      "Cache.evictExpiredEntries",
    );
  }, SCOPED);
});

Deno.test("pointing: the cosine decides; a container needs a clear lead, a function none", () => {
  const chunk: ChunkRecord = {
    id: "a.py:1-7",
    file: "a.py",
    startLine: 1,
    endLine: 7,
    symbol: "Box",
    kind: "class",
    language: "python",
    text:
      "class Box:\n    size = 1\n    def open(self):\n        pass\n    def close(self):\n        pass\n",
  };
  const sym = (name: string, kind: string, s: number, e: number, parent: string | null) =>
    ({
      name,
      qualifiedName: parent ? `${parent}.${name}` : name,
      kind,
      file: "a.py",
      line: s,
      startLine: s,
      endLine: e,
      parent,
      signature: "",
      doc: "",
      language: "python",
    }) as unknown as SymbolRecord;
  const box = sym("Box", "class", 1, 6, null);
  const symbols = [box, sym("open", "method", 3, 4, "Box"), sym("close", "method", 5, 6, "Box")];
  const cos = (table: Record<string, number>) => (_f: string, _p: string | null, code: string) =>
    table[code.includes("def close") ? "close" : code.includes("def open") ? "open" : "head"];
  const none = () => 0;
  assert.equal(
    pointAtMember(chunk, box, symbols, none, cos({ head: 0.3, open: 0.2, close: 0.5 })).symbol,
    "Box.close",
  );
  // The head leads the best member by less than the handicap: the member.
  assert.equal(
    pointAtMember(chunk, box, symbols, none, cos({ head: 0.5, open: 0.4, close: 0.1 })).symbol,
    "Box.open",
  );
  // By more: the class.
  assert.equal(
    pointAtMember(chunk, box, symbols, none, cos({ head: 0.9, open: 0.4, close: 0.1 })).symbol,
    "Box",
  );
  // A function's nested definitions win only by matching better than the rest of it.
  const fn = { ...box, kind: "function" } as SymbolRecord;
  const fnSymbols = [fn, symbols[1], symbols[2]];
  assert.equal(
    pointAtMember(
      { ...chunk, kind: "function" },
      fn,
      fnSymbols,
      none,
      cos({ head: 0.5, open: 0.4, close: 0.1 }),
    ).symbol,
    "Box",
  );
});

Deno.test("scope: code before docs by default, tests only when asked", async () => {
  await withProject("none", async (p) => {
    const q = "retry a failed request with backoff";
    const files = async (opts: Record<string, unknown>) =>
      (await searchProject(p, q, { mode: "lexical", ...opts })).snippets.map((s) => s.file);
    const byDefault = await files({});
    assert.equal(byDefault[0], "src/retry.ts");
    assert.ok(byDefault.includes("docs/retries.md"));
    assert.ok(!byDefault.includes("tests/retry_test.ts"));
    // Unweighted, the prose section (every query word) scores higher than by default (the
    // code, whose name and parameters hold the question's words, still leads: exact.ts).
    const docsScore = async (opts: Record<string, unknown>) =>
      (await searchProject(p, q, { mode: "lexical", ...opts })).snippets
        .find((s) => s.file === "docs/retries.md")?.score ?? 0;
    assert.ok((await docsScore({ scope: "all" })) > (await docsScore({})));
    assert.ok((await files({ scope: "all" })).includes("tests/retry_test.ts"));
    assert.deepEqual([...new Set(await files({ scope: "docs" }))], ["docs/retries.md"]);
    assert.deepEqual([...new Set(await files({ scope: "tests" }))], ["tests/retry_test.ts"]);
    const code = await files({ scope: "code" });
    assert.ok(code.length > 0 && code.every((f) => f.startsWith("src/")));
    assert.ok((await files({ include_tests: true })).includes("tests/retry_test.ts"));
    await assert.rejects(() => files({ scope: "prose" }), /scope must be one of/);
  }, SCOPED);
});

Deno.test("exact and regex modes: every match with line and column; a bad pattern names itself", async () => {
  await withProject("none", async (p, _root, _dir, service) => {
    const exact = await searchProject(p, "delay *= 2", { mode: "exact" });
    assert.equal(exact.mode, "exact");
    assert.equal(exact.snippets.length, 1);
    assert.deepEqual(
      { ...exact.snippets[0], score: 1 },
      {
        file: "src/retry.ts",
        line: 9,
        end_line: 9,
        column: 7,
        score: 1,
        snippet: "      delay *= 2;",
        language: "typescript",
        symbol: "retryWithBackoff",
        kind: "function",
      },
    );
    // Smart case: lower case matches either case; an upper-case letter must match.
    const lower = await searchProject(p, "cache", { mode: "exact" });
    assert.ok(lower.snippets.some((s) => s.file === "src/Cache.java"));
    assert.deepEqual((await searchProject(p, "CACHE", { mode: "exact" })).snippets, []);

    const re = await searchProject(p, String.raw`public \w+ (\w+)\(`, { mode: "regex", top_k: 50 });
    assert.deepEqual(
      re.snippets.map((s) => `${s.line}:${s.column}`),
      ["4:5", "8:5", "12:5"],
    );
    // Tests and docs follow the scope as in ranked modes.
    const inTests = await searchProject(p, "retryWithBackoff", { mode: "exact", top_k: 50 });
    assert.ok(inTests.snippets.every((s) => !s.file.startsWith("tests/")));
    const all = await searchProject(p, "retryWithBackoff", { mode: "exact", scope: "all" });
    assert.ok(all.snippets.some((s) => s.file === "tests/retry_test.ts" && s.line === 1));

    const ex = await createExecutor(service);
    const bad = await ex.execute({
      tool_name: "semantic_search",
      arguments: { query: "retry(", mode: "regex" },
    });
    assert.equal(bad.success, false);
    assert.equal(bad.error_code, "invalid_argument");
    assert.match(bad.error!, /'retry\(' is not a valid regular expression/);
    const ok = await ex.execute({
      tool_name: "semantic_search",
      arguments: { query: "retry(", mode: "exact" },
    });
    assert.equal(ok.success, true);
  }, SCOPED);
});

Deno.test("rerank: the model orders the fused candidates, scores in [0, 1], depth kept", () => {
  const chunk = (file: string, kind: string | null, lines: number): ChunkRecord => ({
    id: `${file}:1-${lines}`,
    file,
    startLine: 1,
    endLine: lines,
    symbol: kind ? "f" : null,
    kind: kind as ChunkRecord["kind"],
    language: "python",
    text: "x\n".repeat(lines),
  });
  const chunks = [
    chunk("src/cache.py", "function", 5),
    chunk("b.py", null, 5),
    chunk("c.py", "class", 40),
  ];
  const table = newChunkTable({
    generation: 1,
    chunks,
    files: chunks.map((c, i) => ({
      path: c.file,
      blob: "",
      language: "python",
      start: i,
      end: i + 1,
    })),
    fileOfRow: Uint32Array.from([0, 1, 2]),
    // No definitions: the name features read the chunk's name alone.
    index: { symbolsByFile: new Map() } as unknown as ChunkTable["index"],
  });
  const input: RerankInput = {
    table,
    lex: Float32Array.from([1, 2, 1]),
    dense: Float32Array.from([0.5, 0.1, 0.2]),
    lexRank: new Map([[1, 0], [0, 1], [2, 2]]),
    denseRank: new Map([[0, 0], [2, 1], [1, 2]]),
    topLex: 2,
    topDense: 0.5,
    coverage: 0.5,
    cover: Float32Array.from([2, 1, 0]),
    coverMax: 2,
    lexStats: [1.3, 0.5],
    denseStats: [0.27, 0.16],
    terms: new Set(["cache"]),
    nameCover: () => 0,
    queryInName: (row) => (row === 0 ? 1 : 0),
    isDocs: () => false,
    // Files 0 and 2 hold lexical candidates; file 0 is the best dense one.
    fileLex: new Map([[0, 1], [2, 2]]),
    fileDense: new Map([[0, 0.5]]),
    fileCount: new Map([[0, 2], [2, 1]]),
  };
  const x = rerankFeatures(input, 0, 0.5);
  assert.equal(x.length, RERANK_FEATURES.length);
  // The path feature: "cache" is a token of src/cache.py.
  assert.equal(x[RERANK_FEATURES.indexOf("path")], 1);
  // Row 0 holds every query term (cover 2 of 2), and only Python's own weights see it.
  assert.equal(x[RERANK_FEATURES.indexOf("term_cover")], 1);
  assert.equal(x[RERANK_FEATURES.indexOf("term_cover_all")], 1);
  assert.equal(x[RERANK_FEATURES.indexOf("query_in_name")], 1);
  assert.equal(x[RERANK_FEATURES.indexOf("lang_dense_python")], 1);
  assert.equal(x[RERANK_FEATURES.indexOf("lang_dense_go")], 0);
  // Row 0's file: its best lexical score is 1 of the top 2, its best cosine the top one,
  // and row 0 is that file's best on both sides.
  assert.equal(x[RERANK_FEATURES.indexOf("file_lexical")], 0.5);
  assert.equal(x[RERANK_FEATURES.indexOf("file_dense")], 1);
  assert.equal(x[RERANK_FEATURES.indexOf("file_best_lexical")], 1);
  assert.equal(x[RERANK_FEATURES.indexOf("file_best_dense")], 1);
  assert.equal(x[RERANK_FEATURES.indexOf("file_candidates")], Math.log2(3) / 6);
  // Row 1's file has no candidate: no file evidence.
  const x1 = rerankFeatures(input, 1, 0.9);
  assert.equal(x1[RERANK_FEATURES.indexOf("file_lexical")], 0);
  assert.equal(x1[RERANK_FEATURES.indexOf("file_candidates")], 0);
  const fused = new Map([[0, 0.5], [1, 0.9], [2, 0.4]]);
  // One feature's weight alone: no hidden layer.
  const only = (name: string) => ({
    ...DEFAULT_RERANK,
    hidden: undefined,
    weights: RERANK_FEATURES.map((f) => (f === name ? 1 : 0)),
  });
  const byDense = rerank(only("cosine"), input, fused, 3);
  assert.deepEqual([...byDense].sort((a, b) => b[1] - a[1]).map(([r]) => r), [0, 2, 1]);
  const byFused = rerank(only("fused"), input, fused, 2);
  assert.deepEqual([...byFused.keys()].sort(), [0, 1]);
  for (const s of [...byDense.values(), ...byFused.values()]) assert.ok(s >= 0 && s <= 1);
});
