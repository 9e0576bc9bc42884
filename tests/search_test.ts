/**
 * Search: code-aware tokens, BM25F, the flat vector index, vector blocks in KV, the
 * background embedding (cache by content, switching embedder), hybrid search through the
 * executor and the CLI, bad input, and the transformers loader on a tiny ONNX model.
 */

import assert from "node:assert/strict";
import { Project } from "../src/index/project.ts";
import { ProjectService } from "../src/service/service.ts";
import { describeChunk } from "../src/search/embedder.ts";
import { transformersProvider } from "../src/search/embedders/transformers.ts";
import { useLiteProvider } from "../src/search/embedders/use_lite.ts";
import { fuse, retrieve, searchProject } from "../src/search/hybrid.ts";
import { bestSnippet } from "../src/search/present.ts";
import { pointAtMember } from "../src/search/members.ts";
import { buildLexicalIndex, decodeLexicalIndex, DEFAULT_BM25 } from "../src/search/lexical.ts";
import { LEXICAL_FILE } from "../src/search/lexical_cache.ts";
import { warmSearch } from "../src/search/warm.ts";
import { projectVectors } from "../src/search/vector_sync.ts";
import {
  DEFAULT_RERANK,
  rerank,
  RERANK_FEATURES,
  rerankFeatures,
  type RerankInput,
} from "../src/search/rerank.ts";
import type { ChunkTable } from "../src/search/table.ts";
import { localModels } from "../src/search/models.ts";
import { resolveEmbedder } from "../src/search/providers.ts";
import { fileTerms } from "../src/index/terms.ts";
import { codeTokens, queryTokens, stem } from "../src/util/tokens.ts";
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
import type { ChunkRecord, SymbolRecord } from "../src/types.ts";
import { cleanup, makeProject, runCli, tempIndexDir, writeFiles } from "./helpers.ts";

const FIXTURE_MODELS = new URL("./fixtures/search/models", import.meta.url).pathname;
const TINY = `${FIXTURE_MODELS}/tiny-static`;

/** A small project whose topics match the tiny model's vocabulary. */
const FILES: Record<string, string> = {
  "app/config.py": `"""Settings."""

import json


def parse_config(path):
    """Load the yaml settings file and return the options."""
    with open(path) as fh:
        return json.load(fh)


def merge_options(a, b):
    out = dict(a)
    out.update(b)
    return out
`,
  "app/auth.py": `class PasswordStore:
    """Keeps user credentials."""

    def hash_password(self, password, salt):
        """Hash a user password with a salt."""
        import hashlib
        return hashlib.sha256(salt + password).hexdigest()

    def check_login(self, user, password):
        return self.lookup(user) == self.hash_password(password, b"s")
`,
  "web/client.ts": `/** Sends an HTTP request and returns the response body. */
export async function fetchUrl(url: string): Promise<string> {
  const response = await fetch(url);
  return await response.text();
}

export function buildQueryString(params: Record<string, string>): string {
  return Object.entries(params).map(([k, v]) => k + "=" + v).join("&");
}
`,
  "util/sorting.ts": `/** Sorts a list in ascending order with quick sort. */
export function quickSort(list: number[]): number[] {
  if (list.length < 2) return list;
  const [pivot, ...rest] = list;
  return [...quickSort(rest.filter((x) => x < pivot)), pivot, ...quickSort(rest.filter((x) => x >= pivot))];
}
`,
  "util/long.py": "def long_function():\n" +
    Array.from({ length: 60 }, (_, i) => `    step_${i} = ${i}\n`).join("") +
    "    needle_value = compute_needle()\n    return needle_value\n",
};

async function withProject<T>(
  embedder: string,
  fn: (p: Project, root: string, indexDir: string, service: ProjectService) => Promise<T>,
  files = FILES,
): Promise<T> {
  const root = await makeProject(files);
  const indexDir = await tempIndexDir();
  const service = await ProjectService.open(root, { indexDir, embedder, workers: 0 });
  try {
    await service.project.reindex();
    return await fn(service.project, root, indexDir, service);
  } finally {
    await service.close();
    await cleanup(root, indexDir);
  }
}

Deno.test("tokens: identifiers split at camelCase, snake_case, digits and dots, whole kept", () => {
  assert.deepEqual(codeTokens("parseHTTPResponse"), [
    "parsehttpresponse",
    "parse",
    "http",
    "response",
  ]);
  assert.deepEqual(codeTokens("os.path.join_paths"), ["os", "path", "join_paths", "join", "path"]);
  assert.deepEqual(codeTokens("utf8Decode"), ["utf8decode", "utf", "decode"]);
  assert.deepEqual(queryTokens("the of and return self"), []);
  assert.deepEqual(queryTokens("!!! ... ???"), []);
  assert.equal(stem("entries"), "entry");
  assert.equal(stem("classes"), "class");
  assert.equal(stem("class"), "class");
  assert.equal(stem("files"), "file");
  assert.equal(stem("status"), "status");
  // `-es` goes after a double `z`, only `s` after a single one.
  assert.equal(stem("sizes"), "size");
  assert.equal(stem("initializes"), "initialize");
  assert.equal(stem("buzzes"), "buzz");
  assert.equal(stem("matches"), "match");
});

function sym(
  p: Partial<SymbolRecord> & { name: string; line: number; endLine: number },
): SymbolRecord {
  return {
    qualifiedName: p.name,
    kind: "function",
    file: "a.py",
    startLine: p.line,
    signature: `def ${p.name}()`,
    doc: "",
    parent: null,
    language: "python",
    ...p,
  };
}

function chunk(
  file: string,
  s: number,
  e: number,
  symbol: string | null,
  text: string,
): ChunkRecord {
  return {
    id: `${file}:${s}-${e}`,
    file,
    startLine: s,
    endLine: e,
    symbol,
    kind: symbol ? "function" : null,
    language: "python",
    text,
  };
}

Deno.test("BM25F: a name match outranks a body mention; unknown terms score nothing", () => {
  const a = fileTerms("a.py", [
    chunk("a.py", 1, 2, "load_config", "def load_config():\n    return read()"),
    chunk("a.py", 3, 5, "other", "def other():\n    # mentions config once\n    x = 1"),
  ], [
    sym({ name: "load_config", line: 1, endLine: 2 }),
    sym({ name: "other", line: 3, endLine: 5 }),
  ]);
  const b = fileTerms("b.py", [chunk("b.py", 1, 1, null, "import os")], []);
  const lex = buildLexicalIndex([{ terms: a, rows: 2 }, { terms: b, rows: 1 }]);
  assert.equal(lex.size, 3);
  const scores = new Float32Array(3);
  const max = lex.score(queryTokens("config loader"), scores);
  assert.ok(max > 0);
  assert.ok(scores[0] > scores[1] && scores[1] > 0, `${scores}`);
  assert.equal(scores[2], 0);
  const none = new Float32Array(3);
  assert.equal(lex.score(["zzz"], none), 0);
  // A file whose term data does not match its rows is left out, not misaligned.
  const bad = buildLexicalIndex([{ terms: a, rows: 3 }]);
  const s2 = new Float32Array(3);
  bad.score(["config"], s2);
  assert.deepEqual([...s2], [0, 0, 0]);
});

Deno.test("BM25F stored: the decoded index scores as the built one; another key or a cut file is null", () => {
  const a = fileTerms("src/naïve_parser.py", [
    chunk(
      "src/naïve_parser.py",
      1,
      2,
      "parse_header",
      "def parse_header(raw):\n    return raw.split(':')",
    ),
    chunk(
      "src/naïve_parser.py",
      3,
      4,
      "parseBody",
      "def parseBody(raw):\n    # the body, décodé\n    return raw",
    ),
  ], [
    sym({ name: "parse_header", line: 1, endLine: 2 }),
    sym({ name: "parseBody", line: 3, endLine: 4 }),
  ]);
  const b = fileTerms("b.py", [chunk("b.py", 1, 1, null, "import os")], []);
  const built = buildLexicalIndex([{ terms: a, rows: 2 }, { terms: b, rows: 1 }]);
  const bytes = built.encode("k1");
  const lex = decodeLexicalIndex(bytes, "k1", DEFAULT_BM25);
  assert.ok(lex);
  assert.equal(lex.size, 3);
  for (
    const q of ["parse the header", "body décodé", "import os naïve", "zzz", "parse parse raw"]
  ) {
    const x = new Float32Array(3),
      y = new Float32Array(3),
      cx = new Float32Array(3),
      cy = new Float32Array(3);
    assert.equal(lex.score(queryTokens(q), x, cx), built.score(queryTokens(q), y, cy), q);
    assert.deepEqual([...x], [...y], q);
    assert.deepEqual([...cx], [...cy], q);
  }
  for (const t of [...a.v, ...b.v, "nothing", ""]) {
    assert.equal(lex.termId(t), built.termId(t), t);
    assert.equal(lex.df(t), built.df(t), t);
  }
  for (let r = 0; r < 3; r++) assert.deepEqual([...lex.nameTerms(r)], [...built.nameTerms(r)]);
  assert.ok(built.termId("décodé") >= 0);
  assert.equal(decodeLexicalIndex(bytes, "k2", DEFAULT_BM25), null);
  assert.equal(decodeLexicalIndex(bytes, "k1", { ...DEFAULT_BM25, k1: 1.2 }), null);
  assert.equal(decodeLexicalIndex(bytes.slice(0, bytes.length - 1), "k1", DEFAULT_BM25), null);
  assert.equal(decodeLexicalIndex(new Uint8Array(8), "k1", DEFAULT_BM25), null);
});

Deno.test("BM25F stored: a second opening of an unchanged index reads it back, a change rebuilds", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  try {
    const ranks = async (p: Project) =>
      (await searchProject(p, "parse config file", { mode: "lexical" })).snippets.map((s) =>
        `${s.file}:${s.line}:${s.score}`
      );
    const first = await Project.open(root, { indexDir, workers: 0 });
    await first.reindex();
    const before = await ranks(first);
    first.close();
    const stored = await Deno.readFile(`${indexDir}/${LEXICAL_FILE}`);
    const inode = (await Deno.stat(`${indexDir}/${LEXICAL_FILE}`)).ino;
    const second = await Project.open(root, { indexDir, workers: 0 });
    assert.deepEqual(await ranks(second), before);
    // Read back, not rebuilt: a build would have renamed a new file over it.
    assert.equal((await Deno.stat(`${indexDir}/${LEXICAL_FILE}`)).ino, inode);
    await Deno.writeTextFile(
      `${root}/extra.py`,
      "def parse_config_file(path):\n    return open(path)\n",
    );
    await second.reindex();
    const after = await ranks(second);
    assert.ok(after.some((r) => r.startsWith("extra.py:")), after.join(" "));
    assert.notDeepEqual(await Deno.readFile(`${indexDir}/${LEXICAL_FILE}`), stored);
    second.close();
  } finally {
    await cleanup(root, indexDir);
  }
});

Deno.test("warm-up: the lexical index is built and stored before any query", async () => {
  await withProject("codectx-code", async (p, _root, indexDir) => {
    await assert.rejects(Deno.stat(`${indexDir}/${LEXICAL_FILE}`));
    await warmSearch(p);
    assert.ok((await Deno.stat(`${indexDir}/${LEXICAL_FILE}`)).size > 0);
    assert.equal(projectVectors(p).progress().state, "complete");
  });
});

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
      const events: string[] = [];
      const stop = service.subscribe((e) => {
        if (e.type === "progress") events.push(e.progress.phase);
      });
      const done = await service.vectors.settle();
      stop();
      assert.equal(done.state, "complete", done.error ?? "");
      assert.equal(done.done, done.total);
      assert.ok(done.total > 0);
      assert.equal(done.embedded, done.total);
      assert.equal(done.dimensions, 8);
      assert.ok(events.includes("embed"));
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
      await p.reindex();
      const again = await service.vectors.settle();
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
        const cold = await q.vectors.settle();
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
        const lite = await s.vectors.settle();
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
    assert.match(text.stdout, /util\/sorting\.ts:2-6/);
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
    // Unweighted, the prose section (every query word) outranks the code.
    assert.equal((await files({ scope: "all" }))[0], "docs/retries.md");
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
  const table = {
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
    index: {} as ChunkTable["index"],
  } satisfies ChunkTable;
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
