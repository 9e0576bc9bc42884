/**
 * Search: the flat vector index, vector blocks in KV, the background embedding (cache by
 * content, switching embedder), hybrid search through the executor and the CLI, bad input,
 * snippets, and the transformers loader on a tiny ONNX model.
 */

import assert from "node:assert/strict";
import { ProjectService } from "../src/service/service.ts";
import type { Project } from "../src/project/project.ts";
import { describeChunk } from "../src/search/embedder.ts";
import { transformersProvider } from "../src/search/embedders/transformers.ts";
import { useLiteProvider } from "../src/search/embedders/use_lite.ts";
import { DEFAULT_FUSION, fuse, retrieve, searchProject } from "../src/search/hybrid.ts";
import { bestSnippet } from "../src/search/present.ts";
import { localModels } from "../src/search/models.ts";
import { resolveEmbedder } from "../src/search/providers.ts";
import {
  collectVectorGarbage,
  readAllBlocks,
  readBlock,
  textHash,
  writeBlock,
} from "../src/search/vector_store.ts";
import { FlatVectorIndex, normalize, topK } from "../src/search/vectors.ts";
import { Store } from "../src/store/kv.ts";
import { createExecutor } from "../src/tools/executor.ts";
import { cleanup, makeProject, runCli, tempIndexDir, writeFiles } from "./helpers.ts";
import { FILES, FIXTURE_MODELS, TINY, withProject } from "./search_fixtures.ts";

Deno.test("flat index: top k equals brute force (SIMD and plain); int8 keeps the ranking", () => {
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) - 0.5;
  const dims = 30; // not a multiple of the SIMD width: rows are padded
  const rows = 500;
  const f32 = new FlatVectorIndex(rows, dims);
  const plain = new FlatVectorIndex(rows, dims, "float32", false);
  const i8 = new FlatVectorIndex(rows, dims, "int8");
  assert.equal(f32.accelerated, true);
  assert.equal(plain.accelerated, false);
  const all: Float32Array[] = [];
  for (let r = 0; r < rows; r++) {
    const v = normalize(Float32Array.from({ length: dims }, rnd));
    all.push(v);
    if (r % 7 !== 3) { // some rows stay absent
      f32.set(r, v);
      plain.set(r, v);
      i8.set(r, v);
    }
  }
  const q = normalize(Float32Array.from({ length: dims }, rnd));
  const brute = all.map((v, r) => ({ r, s: v.reduce((a, x, i) => a + x * q[i], 0) }))
    .filter(({ r }) => r % 7 !== 3).sort((a, b) => b.s - a.s).slice(0, 10).map((x) => x.r);
  assert.deepEqual(f32.search(q, 10).map((h) => h.row), brute);
  assert.deepEqual(plain.search(q, 10).map((h) => h.row), brute);
  const a = new Float32Array(rows);
  const b = new Float32Array(rows);
  f32.scoreAll(q, a);
  plain.scoreAll(q, b);
  for (let r = 0; r < rows; r++) {
    if (r % 7 === 3) assert.ok(Number.isNaN(a[r]) && Number.isNaN(b[r]));
    else assert.ok(Math.abs(a[r] - b[r]) < 1e-5);
  }
  assert.deepEqual([...f32.get(5)!], [...all[5]]);
  const approx = new Set(i8.search(q, 10).map((h) => h.row));
  assert.ok(brute.filter((r) => approx.has(r)).length >= 9);
  assert.deepEqual(f32.search(q, 5, (r) => r % 2 === 0).every((h) => h.row % 2 === 0), true);
  assert.deepEqual(topK(3, 5, (i) => [3, 1, 2][i]).map((h) => h.row), [0, 2, 1]);
  assert.equal(f32.count, rows - Math.ceil((rows - 3) / 7));
});

Deno.test("vector blocks: round trip, header last, garbage collection", async () => {
  const dir = await tempIndexDir();
  const store = await Store.open(dir);
  try {
    const dims = 300; // 2 rows per 60 KB part: several parts
    const hashes = Array.from({ length: 60 }, (_, i) => textHash(`chunk ${i}`));
    const vectors = Float32Array.from({ length: 60 * dims }, (_, i) => (i % 97) / 97);
    await writeBlock(store, "m1", { blob: "b1", dims, hashes, vectors });
    const back = await readBlock(store, "m1", "b1");
    assert.ok(back);
    assert.deepEqual(back.hashes, hashes);
    assert.deepEqual([...back.vectors.slice(0, 5)], [...vectors.slice(0, 5)]);
    // Parts without a header (a run killed mid-write) are invisible.
    await store.kv.set(["vec", "m1", "b2", "p", 0], new Uint8Array(16));
    assert.equal(await readBlock(store, "m1", "b2"), null);
    await writeBlock(store, "m2", {
      blob: "b1",
      dims: 2,
      hashes: [hashes[0]],
      vectors: new Float32Array(2),
    });
    const blobs: string[] = [];
    for await (const b of readAllBlocks(store, "m1")) blobs.push(b.blob);
    assert.deepEqual(blobs, ["b1"]);
    assert.equal(await collectVectorGarbage(store, "m1", new Set(["b1"])), 2);
    assert.ok(await readBlock(store, "m1", "b1"));
    assert.equal(await readBlock(store, "m2", "b1"), null);
  } finally {
    store.close();
    await cleanup(dir);
  }
});

Deno.test("lexical search: split identifiers, filters, one result per symbol, snippets, spans", async () => {
  await withProject("none", async (p) => {
    const r = await searchProject(p, "parse config", { mode: "lexical" });
    assert.equal(r.snippets[0].file, "app/config.py");
    assert.equal(r.snippets[0].symbol, "parse_config");
    assert.equal(r.snippets[0].line, 6);
    assert.equal(r.snippets[0].end_line, 9);
    assert.equal(r.index_state, "ready");
    assert.equal(r.vectors.state, "off");
    for (const s of r.snippets) assert.ok(s.score >= 0 && s.score <= 1);

    const ts = await searchProject(p, "quick sort", { language: "typescript" });
    assert.ok(ts.snippets.length > 0);
    assert.ok(ts.snippets.every((s) => s.language === "typescript"));
    const under = await searchProject(p, "password hash", { path_prefix: "web" });
    assert.ok(under.snippets.every((s) => s.file.startsWith("web/")));

    const long = await searchProject(p, "needle value", { mode: "lexical" });
    assert.equal(long.snippets[0].symbol, "long_function");
    const lines = long.snippets[0].snippet.split("\n");
    assert.ok(lines.length <= 20);
    assert.ok(long.snippets[0].snippet.includes("needle_value"));
    const symbols = long.snippets.map((s) => `${s.file}:${s.symbol}`);
    assert.equal(new Set(symbols).size, symbols.length);

    const high = await searchProject(p, "parse config", { threshold: 0.99, mode: "lexical" });
    assert.ok(high.snippets.every((s) => s.score >= 0.99));
    const stop = await searchProject(p, "the of and", {});
    assert.deepEqual(stop.snippets, []);
    await assert.rejects(() => searchProject(p, "x", { mode: "dense" }), /embedder is 'none'/);
  });
});

Deno.test("semantic_search tool: bad input is invalid_argument naming the parameter", async () => {
  await withProject("none", async (_p, _root, _dir, service) => {
    const ex = await createExecutor(service);
    const call = (args: Record<string, unknown>) =>
      ex.execute({ tool_name: "semantic_search", arguments: args });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ query: "" }, /query/],
      [{ query: "   \n" }, /query/],
      [{ query: "x".repeat(4097) }, /query/],
      [{ query: "é".repeat(2100) }, /query/], // 4,200 bytes
      [{ query: "a", top_k: 0 }, /top_k/],
      [{ query: "a", top_k: 101 }, /top_k/],
      [{ query: "a", threshold: 1.5 }, /threshold/],
      [{ query: "a", threshold: -0.1 }, /threshold/],
      [{ query: "a", mode: "fuzzy" }, /mode/],
      [{ query: "a", language: "cobol" }, /language/],
      [{ query: "a", path_prefix: "../outside" }, /path_prefix/],
    ];
    for (const [args, re] of cases) {
      const r = await call(args);
      assert.equal(r.success, false, JSON.stringify(args));
      assert.ok(
        r.error_code === "invalid_argument" || r.error_code === "outside_root",
        `${JSON.stringify(args)}: ${r.error_code}`,
      );
      assert.match(r.error!, re);
    }
    for (const q of ["the of and", "!!! ??? ...", "*", "()"]) {
      const r = await call({ query: q });
      assert.equal(r.success, true, `${q}: ${r.error}`);
    }
    const ok = await call({ query: "fetch url response", top_k: 2 });
    assert.equal(ok.success, true);
    const payload = ok.result_payload as { snippets: Array<{ file: string }>; mode: string };
    assert.ok(payload.snippets.length >= 1 && payload.snippets.length <= 2);
    assert.equal(payload.snippets[0].file, "web/client.ts");
  });
});

Deno.test("transformers loader: a tiny local ONNX model embeds offline", async () => {
  assert.equal(await transformersProvider.check(TINY), null);
  assert.match((await transformersProvider.check("/nonexistent/model"))!, /models pull/);
  const e = await transformersProvider.load(TINY);
  try {
    assert.equal(e.dimensions, 8);
    const [a, b, c] = await e.embed(["parse the config", "load settings", "http request"]);
    const dot = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * y[i], 0);
    assert.ok(Math.abs(dot(a, a) - 1) < 1e-4);
    assert.ok(dot(a, b) > 0.8, `${dot(a, b)}`);
    assert.ok(dot(a, c) < 0.3, `${dot(a, c)}`);
  } finally {
    e.close?.();
  }
});

Deno.test("embedder choice: auto prefers a local model, then codectx-code, then use-lite", async () => {
  const before = Deno.env.get("CODECTX_MODELS");
  try {
    Deno.env.set("CODECTX_MODELS", FIXTURE_MODELS);
    assert.deepEqual(localModels(), ["tiny-static"]);
    assert.equal((await resolveEmbedder("auto"))?.provider.name, "transformers");
    assert.equal((await resolveEmbedder("transformers:tiny-static"))?.id, `transformers:${TINY}`);
    const empty = await Deno.makeTempDir();
    Deno.env.set("CODECTX_MODELS", empty);
    assert.match((await resolveEmbedder("auto"))?.id ?? "", /^codectx-code@[0-9a-f]{12}$/);
    await cleanup(empty);
  } finally {
    if (before === undefined) Deno.env.delete("CODECTX_MODELS");
    else Deno.env.set("CODECTX_MODELS", before);
  }
  assert.equal(await resolveEmbedder("none"), null);
  await assert.rejects(() => resolveEmbedder("word2vec"), /unknown embedder/);
  assert.equal((await resolveEmbedder("codectx-code"))?.provider.name, "codectx-code");
  assert.equal((await resolveEmbedder("use-lite"))?.id, "use-lite@0.2.0");
  await assert.rejects(() => resolveEmbedder("transformers:no/such-model"), /models pull/);
});

Deno.test({
  name: "background vectors: complete, persisted, reused by content; hybrid and dense answer",
  async fn() {
    await withProject(`transformers:${TINY}`, async (p, root, indexDir, service) => {
      // The index_project of a process that does not serve made them (issue 34).
      const done = await service.vectors.settle();
      assert.equal(done.state, "complete", done.error ?? "");
      assert.equal(done.done, done.total);
      assert.ok(done.total > 0);
      assert.equal(done.embedded, done.total);
      assert.equal(done.dimensions, 8);
      assert.equal((await service.health()).vectors_state, "complete");

      const dense = await searchProject(p, "user login credential", { mode: "dense", top_k: 3 });
      assert.equal(dense.snippets[0].file, "app/auth.py");
      const hybrid = await searchProject(p, "download from url", { top_k: 3 });
      assert.equal(hybrid.snippets[0].file, "web/client.ts");
      assert.equal(hybrid.mode, "hybrid");
      const r = await retrieve(p, "sort order", {});
      assert.ok(r.dense && r.lex);
      const rrf = fuse(r, {
        method: "rrf",
        rrfK: 60,
        lexicalWeight: 0.5,
        nameBoost: 0,
        candidates: 50,
        bm25: (await import("../src/search/lexical.ts")).DEFAULT_BM25,
      });
      for (const s of rrf.values()) assert.ok(s >= 0 && s <= 1);

      // A complete, unchanged set of vectors is never rebuilt by a query.
      const rebuilds = service.vectors.rebuilds;
      for (let i = 0; i < 50; i++) {
        await searchProject(p, i % 2 ? "download from url" : "sort order", { top_k: 3 });
      }
      assert.equal(service.vectors.rebuilds, rebuilds, "queries rebuilt the vectors");

      // Edit one file: only its changed chunks are embedded again.
      await writeFiles(root, {
        "util/sorting.ts": FILES["util/sorting.ts"] + "\nexport const ORDER = 'ascending';\n",
      });
      const events: string[] = [];
      const stop = service.subscribe((e) => {
        if (e.type === "progress") events.push(e.progress.phase);
      });
      await p.reindex();
      const again = await service.vectors.settle();
      stop();
      assert.ok(events.includes("embed"));
      assert.equal(again.state, "complete");
      assert.equal(service.vectors.rebuilds, rebuilds + 1, "one rebuild for the new generation");
      assert.equal(again.done, again.total);
      assert.ok(again.embedded >= 1 && again.embedded <= 2, `embedded ${again.embedded}`);

      // A new process finds every vector in the store.
      await service.close();
      const q = await ProjectService.open(root, {
        indexDir,
        embedder: `transformers:${TINY}`,
        workers: 0,
      });
      try {
        const cold = await q.vectorsReady();
        assert.equal(cold.embedded, 0);
        assert.equal(cold.done, cold.total);

        // Switching embedder never mixes: the old vectors go when the new ones are complete.
        const store = q.project.store;
        let old = 0;
        for await (const _ of readAllBlocks(store, `transformers:${TINY}`)) old++;
        assert.ok(old > 0);
      } finally {
        await q.close();
      }
      const s = await ProjectService.open(root, { indexDir, embedder: "use-lite", workers: 0 });
      try {
        const lite = await s.vectorsReady();
        assert.equal(lite.state, "complete", lite.error ?? "");
        assert.equal(lite.dimensions, 512);
        let left = 0;
        for await (const _ of readAllBlocks(s.project.store, `transformers:${TINY}`)) left++;
        assert.equal(left, 0);
        const hit = await searchProject(s.project, "hash a password", { top_k: 3 });
        assert.equal(hit.snippets[0].file, "app/auth.py");
      } finally {
        await s.close();
      }
    });
  },
});

Deno.test("use-lite: chunks are described in words, vectors are unit length", async () => {
  const text = describeChunk({
    file: "lib/http/client.py",
    language: "python",
    symbol: "Client.sendRequest",
    kind: "method",
    name: "sendRequest",
    parent: "Client",
    signature: "def sendRequest(self, url)",
    doc: "Send the request. More text.",
    text: "def sendRequest(self, url):\n    return self.pool.urlopen(url)",
  });
  assert.match(text, /^method send request in client\. file http client\. Send the request\./);
  assert.match(text, /pool urlopen/);
  const e = await useLiteProvider.load("");
  const [v] = await e.embed([text]);
  assert.equal(v.length, 512);
  assert.ok(Math.abs(v.reduce((a, x) => a + x * x, 0) - 1) < 1e-3);
});

Deno.test("snippet: the 20-line window with the most query hits", () => {
  const text = Array.from({ length: 50 }, (_, i) => (i === 35 ? "x = find_needle()" : `y${i} = 0`))
    .join("\n");
  const s = bestSnippet(text, 100, new Set(["needle"]));
  assert.equal(s.text.split("\n").length, 20);
  assert.ok(s.text.includes("find_needle"));
  assert.ok(s.line > 100);
  assert.equal(bestSnippet("a\nb", 7, new Set()).text, "a\nb");
});

Deno.test("cli: codectx search prints results; bad input is a usage error", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  try {
    const base = ["--path", root, "--index-dir", indexDir, "--embedder", "none"];
    const json = await runCli(["search", "parse config", "--json", "--top-k", "3", ...base]);
    assert.equal(json.code, 0, json.stderr);
    const out = JSON.parse(json.stdout);
    assert.equal(out.snippets[0].symbol, "parse_config");
    assert.ok(out.snippets.length <= 3);
    const text = await runCli(["search", "quick sort list", "--mode", "lexical", ...base]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /util\/sorting\.ts:\d+ \w+ \(function 2-6\)/);
    const empty = await runCli(["search", "  ", ...base]);
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /query is empty/);
    const topk = await runCli(["search", "x", "--top-k", "500", ...base]);
    assert.equal(topk.code, 2);
    assert.match(topk.stderr, /top_k/);
    const models = await runCli(["models", "list"], { CODECTX_MODELS: FIXTURE_MODELS });
    assert.equal(models.code, 0, models.stderr);
    assert.match(models.stdout, /tiny-static/);
  } finally {
    await cleanup(root, indexDir);
  }
});

Deno.test("score: the chance of an answer in every ranked mode, the order kept", async () => {
  // The exact forms' evidence (exact.ts) moves scores after calibration: off on both sides.
  const curved = { ...DEFAULT_FUSION, exact: null };
  const raw = { ...curved, calibration: null };
  /** A mode's results: in the fused order, each score the mode's curve of the fused one. */
  const onCurve = async (p: Project, query: string, mode: "lexical" | "dense") => {
    const [scale, bias] = DEFAULT_FUSION.calibration![mode];
    const asFused = await searchProject(p, query, { mode }, raw);
    const out = await searchProject(p, query, { mode }, curved);
    assert.ok(out.snippets.length >= 2, mode);
    assert.deepEqual(out.snippets.map((s) => s.line), asFused.snippets.map((s) => s.line));
    out.snippets.forEach((s, i) => {
      const want = 1 / (1 + Math.exp(-(scale * asFused.snippets[i].score + bias)));
      assert.ok(Math.abs(s.score - want) < 1e-3, `${mode}: ${s.score} vs ${want}`);
      if (mode === "lexical") assert.ok(s.score < asFused.snippets[i].score);
    });
    return out;
  };
  // Lexical mode, and hybrid before any vector (no embedder), read through the lexical curve.
  await withProject("none", async (p) => {
    const lexical = await onCurve(p, "parse config", "lexical");
    const hybrid = await searchProject(p, "parse config", {}, curved);
    assert.deepEqual(hybrid.snippets.map((s) => s.score), lexical.snippets.map((s) => s.score));
    // With the exact forms too, hybrid before any vector is lexical.
    const [h, l] = await Promise.all(
      (["hybrid", "lexical"] as const).map((mode) => searchProject(p, "parse config", { mode })),
    );
    assert.deepEqual(h.snippets, l.snippets);
    const t = lexical.snippets[1].score;
    const kept = await searchProject(p, "parse config", { mode: "lexical", threshold: t });
    assert.ok(kept.snippets.length >= 2 && kept.snippets.every((s) => s.score >= t));
  });
  // Dense mode, through its own curve.
  await withProject("codectx-code", async (p, _root, _dir, service) => {
    assert.equal((await service.vectors.settle()).state, "complete");
    await onCurve(p, "hash a password", "dense");
  });
});

Deno.test("a query none of whose words the project knows has no results", async () => {
  // `qqqzzz` is in a test file only: the code the default scope searches does not know it.
  const files = { ...FILES, "tests/test_words.py": "def test_qqqzzz():\n    assert True\n" };
  await withProject("codectx-code", async (p, _root, _dir, service) => {
    assert.equal((await service.vectors.settle()).state, "complete");
    for (const mode of ["hybrid", "lexical", "dense"] as const) {
      const none = await searchProject(p, "zzzqqq qqqzzz", { mode });
      assert.deepEqual(none.snippets, [], mode);
      // One known word is enough to answer.
      const some = await searchProject(p, "zzzqqq password", { mode });
      assert.ok(some.snippets.length > 0, mode);
    }
    const tests = await searchProject(p, "zzzqqq qqqzzz", { include_tests: true });
    assert.deepEqual(tests.snippets.map((s) => s.file), ["tests/test_words.py"]);
  }, files);
});
