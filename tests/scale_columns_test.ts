/**
 * The symbol columns (`src/index/symbol_columns.ts`): the records they make are the ones
 * they were built from, through `symbols.bin` and back; files put in manifest order; a
 * file built from other blobs is not read back; and a project's tools answer the same from
 * a fresh process that reads the file as from the one that built it.
 */

import assert from "node:assert/strict";
import { SymbolColumns } from "../src/index/symbol_columns.ts";
import { ColumnsBuilder, columnsOf } from "../src/index/symbol_columns_builder.ts";
import { createExecutor } from "../src/tools/executor.ts";
import type { ChunkRecord, SymbolRecord } from "../src/types.ts";
import { ChunkColumns, ChunkColumnsWriter, columnTextBytes } from "../src/index/chunk_columns.ts";
import { chunkTextBytes } from "../src/index/chunk_text_bytes.ts";
import { callTool, cleanup, makeProject, tempIndexDir } from "./helpers.ts";
import { Project } from "../src/project/project.ts";
import { columnsKey, loadColumns } from "../src/index/symbols_file.ts";

function sym(
  file: string,
  name: string,
  i: number,
  extra: Partial<SymbolRecord> = {},
): SymbolRecord {
  return {
    name,
    qualifiedName: i % 2 ? `Outer.${name}` : name,
    kind: i % 3 ? "function" : "class",
    file,
    line: i + 1,
    startLine: i,
    endLine: i + 5,
    signature: `def ${name}(x)`,
    doc: i % 4 ? "" : `Does ${name} — café ✓`,
    parent: i % 2 ? "Outer" : null,
    language: "python",
    ...extra,
  };
}

Deno.test("columns make the records they were built from, written and read back", async () => {
  const files: [string, SymbolRecord[]][] = [
    ["a.py", [sym("a.py", "alpha", 0), sym("a.py", "beta", 1), sym("a.py", "alpha", 2)]],
    ["empty.py", []],
    ["b/c.py", [sym("b/c.py", "gamma", 3, { signature: "" }), sym("b/c.py", "Alpha", 4)]],
  ];
  const built = columnsOf(files);
  const want = files.flatMap(([, l]) => l);
  assert.deepEqual(built.allRecords(), want);
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/symbols.bin`;
    const f = Deno.openSync(path, { write: true, create: true });
    for (const part of built.encodeParts("k1")) f.writeSync(part);
    f.close();
    assert.equal(SymbolColumns.fileKey(path), "k1");
    assert.equal(SymbolColumns.readFile(path, "other key"), null);
    const back = SymbolColumns.readFile(path, "k1")!;
    assert.equal(back.count, want.length);
    assert.deepEqual(back.fileRecords(back.fileIndex("b/c.py")), want.slice(3));
    assert.deepEqual(back.allRecords(), want);
    // One object per symbol, however it is reached.
    assert.equal(back.record(4), back.fileRecords(2)[1]);
    assert.deepEqual(back.fileRecords(1), []);
    const lower = (v: string) => v.toLowerCase();
    assert.deepEqual(back.lookup("name", lower, "lower", "alpha"), [0, 2, 4]);
    assert.deepEqual(back.lookup("name", (v) => v, "exact", "alpha"), [0, 2]);
    assert.deepEqual(back.lookup("qualifiedName", (v) => v, "exact", "Outer.beta"), [1]);
    assert.deepEqual(back.lookup("name", (v) => v, "exact", "nothing"), []);
    // A field's first exact lookup compares the values in place, later ones use the table.
    assert.deepEqual(back.lookup("name", (v) => v, "exact", "alpha"), [0, 2]);
    assert.deepEqual(back.lookup("name", (v) => v, "exact", "alph"), []);
    assert.deepEqual(back.lookup("qualifiedName", (v) => v, "exact", "Outer.beta"), [1]);
    back.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("files added in any order are put in the manifest's order", () => {
  const b = new ColumnsBuilder();
  const x = [sym("x.py", "one", 0), sym("x.py", "two", 1)];
  const y = [sym("y.py", "three", 2)];
  b.add("y.py", y);
  b.add("x.py", x);
  const cols = b.finish(["x.py", "none.py", "y.py"]);
  assert.deepEqual(cols.files, ["x.py", "none.py", "y.py"]);
  assert.deepEqual(cols.allRecords(), [...x, ...y]);
  assert.equal(cols.fileOf(2), "y.py");
  assert.deepEqual(cols.fileRecords(1), []);
});

Deno.test("a fresh process reads symbols.bin and answers as the one that built it", async () => {
  const root = await makeProject({
    "pkg/session.py":
      "class Session:\n    def request(self):\n        '''Send it.'''\n        return 1\n",
    "pkg/util.py": "def request_id():\n    return 2\n\ndef other():\n    return request_id()\n",
  });
  const indexDir = await tempIndexDir();
  const open = () => createExecutor(root, { indexDir, workers: 0, embedder: "none", timeoutMs: 0 });
  const asks = [
    { query: "request" },
    { query: "Session.request" },
    { query: "" },
    { query: "req", kind: "function" },
    { query: "r", path_prefix: "pkg/util.py" },
  ];
  try {
    const first = await open();
    const answers = [];
    try {
      await callTool(first, "index_project", {});
      for (const a of asks) answers.push(await callTool(first, "search_symbols", a));
    } finally {
      await first.close();
    }
    const stat = await Deno.stat(`${indexDir}/symbols.bin`);
    assert.ok(stat.size > 0);
    const second = await open();
    try {
      for (const [i, a] of asks.entries()) {
        assert.deepEqual(await callTool(second, "search_symbols", a), answers[i], a.query);
      }
      const named = (answers[1].symbols as { qualified_name: string }[])[0];
      assert.equal(named.qualified_name, "Session.request");
    } finally {
      await second.close();
    }
    // The file is not rewritten when nothing changed.
    assert.equal(
      (await Deno.stat(`${indexDir}/symbols.bin`)).mtime?.getTime(),
      stat.mtime?.getTime(),
    );
  } finally {
    await cleanup(root, indexDir);
  }
});

Deno.test("chunks.bin: chunks added in any order come back in the files' order, texts from the file", async () => {
  const chunk = (file: string, start: number, text: string, extra: Partial<ChunkRecord> = {}) => ({
    id: `${file}:${start}-${start + 2}`,
    file,
    startLine: start,
    endLine: start + 2,
    symbol: start % 2 ? `Outer.f${start}` : null,
    kind: start % 2 ? "method" as const : null,
    language: file.endsWith(".c") ? "c" : "python",
    text,
    ...extra,
  });
  const a = [chunk("a.py", 1, "def f():\n    return 'café ✓'\n"), chunk("a.py", 4, "")];
  const b = [chunk("b/c.c", 3, "int x;\n", { id: "b/c.c:3-5#2" }), chunk("b/c.c", 9, "y")];
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/chunks.bin`;
    const w = new ChunkColumnsWriter(path);
    w.add("b/c.c", b);
    w.add("a.py", a);
    w.finish("k1", ["a.py", "none.py", "b/c.c"]);
    assert.equal(ChunkColumns.fileKey(path), "k1");
    assert.equal(ChunkColumns.readFile(path, "k2"), null);
    const cols = ChunkColumns.readFile(path, "k1")!;
    const plain = (c: ChunkRecord) => ({
      id: c.id,
      file: c.file,
      startLine: c.startLine,
      endLine: c.endLine,
      symbol: c.symbol,
      kind: c.kind,
      language: c.language,
      text: c.text,
    });
    assert.deepEqual(cols.records().map(plain), [...a, ...b]);
    // A file's chunks read in one piece as bytes (what a regex scan takes) are their texts.
    const records = cols.records();
    for (const [from, to] of [[0, 2], [2, 4]]) {
      const { bytes, lengths } = chunkTextBytes(records.slice(from, to));
      assert.ok(columnTextBytes(records.slice(from, to)), "read from the columns file");
      let at = 0;
      const texts = [...lengths].map((n) => new TextDecoder().decode(bytes.subarray(at, at += n)));
      assert.deepEqual(texts, [...a, ...b].slice(from, to).map((c) => c.text));
    }
    cols.close();
    // A writer given up leaves nothing behind.
    const gone = new ChunkColumnsWriter(`${dir}/other.bin`);
    gone.add("a.py", a);
    gone.abandon();
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["chunks.bin"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("columns built without reading them back are the ones the written file gives", async () => {
  const root = await makeProject({
    "pkg/session.py":
      "class Session:\n    def request(self):\n        '''Send it.'''\n        return 1\n",
    "pkg/util.py": "def request_id(a, b):\n    return 2\n",
  });
  const indexDir = await tempIndexDir();
  const project = await Project.open(root, { indexDir, workers: 0 });
  try {
    await project.reindex();
    const manifest = (await project.store.readCurrent())!;
    const key = await columnsKey(manifest);
    await Deno.remove(`${indexDir}/symbols.bin`).catch(() => {});
    const built = await loadColumns(project.store, manifest, key, null, false);
    const read = SymbolColumns.readFile(`${indexDir}/symbols.bin`, key);
    assert.ok(read, "the file was written");
    assert.ok(built.count >= 3);
    assert.equal(built.count, read.count);
    assert.deepEqual(built.allRecords(), read.allRecords());
    read.close();
    built.close();
  } finally {
    project.close();
    await cleanup(root, indexDir);
  }
});
