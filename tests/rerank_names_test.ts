/**
 * The second stage's name features (`src/search/rerank_names.ts`): the name that starts with
 * the question's verb, internal definitions per language, the question's words among the
 * parameters — and a search worker's table, which holds no names, scoring alike once it has
 * the traits a snapshot carries.
 */

import assert from "node:assert/strict";
import { attachRowTraits, nameFeatures, rowTraitsInSlices } from "../src/search/rerank_names.ts";
import { RERANK_FEATURES } from "../src/search/rerank.ts";
import { type ChunkTable, newChunkTable } from "../src/search/table.ts";
import type { ChunkRecord, SymbolRecord } from "../src/types.ts";
import { queryTokens } from "../src/util/tokens.ts";

/** One definition per row: [file, language, qualified name, signature]. */
const ROWS: Array<[string, string, string, string]> = [
  ["lib/list.js", "javascript", "isEmpty", "function isEmpty(list)"],
  ["lib/list.js", "javascript", "emptyList", "function emptyList()"],
  ["lib/_baseKeys.js", "javascript", "baseKeys", "function baseKeys(object)"],
  ["pkg/conn.go", "go", "dial", "func dial(addr string, timeout time.Duration) error"],
  ["pkg/conn.go", "go", "Dial", "func Dial(addr string) error"],
  ["src/lib.rs", "rust", "parse", "fn parse(input: &str) -> Config"],
  ["src/lib.rs", "rust", "Config.load", "pub fn load(path: &Path) -> Config"],
  ["src/Pool.java", "java", "Pool.drain", "private void drain(long deadline)"],
  ["src/util.py", "python", "_helper", "def _helper(path, mode)"],
  ["src/util.py", "python", "new_parser", "def new_parser(grammar)"],
];

function table(withNames: boolean, rows = ROWS, previous?: ChunkTable): ChunkTable {
  const chunks: ChunkRecord[] = rows.map(([file, language, name], i) => ({
    id: `${file}:${i + 1}-${i + 1}`,
    file,
    startLine: i + 1,
    endLine: i + 1,
    symbol: withNames ? name : null,
    kind: "function",
    language,
    text: withNames ? "x" : "",
  }));
  const symbolsByFile = new Map<string, SymbolRecord[]>();
  rows.forEach(([file, language, name, signature], i) => {
    const list = symbolsByFile.get(file) ?? [];
    list.push({
      name: name.slice(name.lastIndexOf(".") + 1),
      qualifiedName: name,
      kind: "function",
      file,
      line: i + 1,
      startLine: i + 1,
      endLine: i + 1,
      signature,
      doc: "",
      parent: null,
      language,
    });
    symbolsByFile.set(file, list);
  });
  const files: ChunkTable["files"] = [];
  const fileOfRow = new Uint32Array(chunks.length);
  chunks.forEach((c, row) => {
    if (files.at(-1)?.path !== c.file) {
      // A file's blob names its content: here, its rows' signatures.
      const blob = rows.filter((r) => r[0] === c.file).map((r) => r[3]).join();
      files.push({ path: c.file, blob, language: c.language, start: row, end: row });
    }
    files[files.length - 1].end = row + 1;
    fileOfRow[row] = files.length - 1;
  });
  const index = (withNames ? { symbolsByFile } : null) as unknown as ChunkTable["index"];
  return newChunkTable({ generation: 1, chunks, files, fileOfRow, index }, previous);
}

const row = (name: string) => ROWS.findIndex((r) => r[2] === name);
const features = (t: ChunkTable, query: string, name: string) => {
  const [first, internal, params] = nameFeatures(t, new Set(queryTokens(query)), row(name));
  return { first, internal, params };
};

Deno.test("name features: the name that starts with the question's verb", () => {
  const t = table(true);
  // "Checks if …" is an `isX`; a name that holds the words elsewhere is not.
  assert.equal(features(t, "Checks if the list is empty", "isEmpty").first, 1);
  assert.equal(features(t, "Checks if the list is empty", "emptyList").first, 0);
  // The first word itself, and a verb's other name prefixes ("Create" → `new_`).
  assert.equal(features(t, "The base implementation of keys", "baseKeys").first, 1);
  assert.equal(features(t, "Creates a parser for the grammar", "new_parser").first, 1);
  assert.equal(features(t, "Parse the input into a config", "new_parser").first, 0);
});

Deno.test("name features: internal definitions per language, parameters' words", () => {
  const t = table(true);
  const internal = ROWS.map(([, , name]) => features(t, "anything", name).internal);
  // `_baseKeys.js`'s file, unexported Go, Rust without `pub`, Java `private`, Python `_`.
  assert.deepEqual(internal, [0, 0, 1, 1, 0, 1, 0, 1, 1, 0]);
  // Two of the question's words ("path", "mode") of its four are `_helper`'s parameters.
  assert.equal(features(t, "Open path with mode flags quickly", "_helper").params, 2 / 5);
  assert.equal(features(t, "Open path with mode flags quickly", "new_parser").params, 0);
});

Deno.test("name features: internal by the language table's visibility in other languages", () => {
  const rows: Array<[string, string, string, string]> = [
    ["src/a.ts", "typescript", "A.load", "private load(path: string)"],
    ["src/a.ts", "typescript", "A.save", "public save(path: string)"],
    ["src/b.js", "javascript", "B.#cache", "#cache(key)"],
    ["src/C.cs", "csharp", "C.Parse", "private int Parse(string s)"],
    ["src/d.swift", "swift", "D.reset", "fileprivate func reset()"],
    ["src/e.kt", "kotlin", "E.run", "fun run(args: Array<String>)"],
  ];
  const t = table(true, rows);
  const terms = new Set(queryTokens("anything"));
  const internal = rows.map((_, i) => nameFeatures(t, terms, i)[1]);
  assert.deepEqual(internal, [1, 0, 1, 1, 1, 0]);
});

Deno.test("name features: a search worker's table (no names) scores alike with the snapshot's traits", async () => {
  const main = table(true);
  const shared = await rowTraitsInSlices(main);
  assert.ok(shared.first.buffer instanceof SharedArrayBuffer);
  const worker = table(false);
  attachRowTraits(worker, shared);
  for (const query of ["Checks if the list is empty", "Dial addr with a timeout", "drain"]) {
    const terms = new Set(queryTokens(query));
    for (let r = 0; r < ROWS.length; r++) {
      assert.deepEqual(nameFeatures(worker, terms, r), nameFeatures(main, terms, r), query);
    }
  }
  // Without them the worker's rows have no names: the features would differ.
  const bare = table(false);
  const terms = new Set(queryTokens("Checks if the list is empty"));
  assert.notDeepEqual(nameFeatures(bare, terms, row("isEmpty")), nameFeatures(main, terms, 0));
  assert.equal(RERANK_FEATURES.at(-1), "params");
});

Deno.test("name features: a new generation's traits reuse unchanged files and read changed ones again", async () => {
  const before = table(true);
  await rowTraitsInSlices(before);
  // `_helper` gains a parameter: src/util.py has another blob; the other files keep theirs.
  const rows = ROWS.map((r): [string, string, string, string] =>
    r[2] === "_helper" ? [r[0], r[1], r[2], "def _helper(path, mode, timeout)"] : r
  );
  const after = table(true, rows, before);
  const shared = await rowTraitsInSlices(after);
  const worker = table(false, rows);
  attachRowTraits(worker, shared);
  const terms = new Set(queryTokens("Wait for the timeout on the path"));
  for (let r = 0; r < rows.length; r++) {
    assert.deepEqual(nameFeatures(worker, terms, r), nameFeatures(after, terms, r));
  }
  assert.equal(nameFeatures(worker, terms, row("_helper"))[2], 2 / 3);
});

Deno.test("name features: traits are made once per table, alike for alike tables", async () => {
  const t = table(true);
  const asked = rowTraitsInSlices(t);
  // Asked again while being made, and after: the one build's traits, not a second build.
  const again = rowTraitsInSlices(t);
  const sliced = await asked;
  assert.equal(await again, sliced);
  assert.equal(await rowTraitsInSlices(t), sliced);
  const other = table(true);
  assert.deepEqual(await rowTraitsInSlices(other), sliced);
});
