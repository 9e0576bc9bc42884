/**
 * Search, the lexical side: code-aware tokens and the stemmer, BM25F built, stored and read
 * back, the lexical index built by the warm-up.
 */

import assert from "node:assert/strict";
import { Project } from "../src/project/project.ts";
import { searchProject } from "../src/search/hybrid.ts";
import { buildLexicalIndex, decodeLexicalIndex, DEFAULT_BM25 } from "../src/search/lexical.ts";
import { LEXICAL_FILE } from "../src/search/lexical_cache.ts";
import { warmSearch } from "../src/search/warm.ts";
import { projectVectors } from "../src/search/vector_sync.ts";
import { fileTerms } from "../src/index/terms.ts";
import { codeTokens, queryTokens, stem } from "../src/util/tokens.ts";
import type { ChunkRecord, SymbolRecord } from "../src/types.ts";
import { cleanup, makeProject, tempIndexDir } from "./helpers.ts";
import { FILES, withProject } from "./search_fixtures.ts";

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

Deno.test("warm-up: the lexical index is stored by the run, the vectors complete before any query", async () => {
  await withProject("codectx-code", async (p, _root, indexDir) => {
    // A process's first run leaves lexical.bin (issue 34: the next process opens it).
    assert.ok((await Deno.stat(`${indexDir}/${LEXICAL_FILE}`)).size > 0);
    await warmSearch(p);
    assert.equal(projectVectors(p).progress().state, "complete");
  });
});
