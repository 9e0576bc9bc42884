/**
 * The query side's other word forms and compounds (`src/search/variants.ts`), and the
 * lexical search that uses them: a question that says `bailing` or `before each` finds the
 * function named `bail` or `beforeEach`.
 */

import assert from "node:assert/strict";
import {
  ABBREVIATIONS,
  compounds,
  expandQuery,
  isQuestion,
  restoredE,
  VARIANT_WEIGHT,
  wordVariants,
} from "../src/search/variants.ts";
import { buildLexicalIndex } from "../src/search/lexical.ts";
import { fileTerms } from "../src/index/terms.ts";
import { queryTokens } from "../src/util/tokens.ts";
import { searchProject } from "../src/search/hybrid.ts";
import { ProjectService } from "../src/service/service.ts";
import type { ChunkRecord, SymbolRecord } from "../src/types.ts";
import { cleanup, makeProject, tempIndexDir } from "./helpers.ts";

Deno.test("variants: in a question the base forms of participles weigh as the words", () => {
  const known = new Set(["open", "index", "store", "rank"]);
  const weightOf = (query: string, term: string) => {
    const q = expandQuery(queryTokens(query), (t) => known.has(t), query);
    return q.weights[q.terms.indexOf(term)];
  };
  assert.equal(weightOf("where is the index store opened?", "open"), 1);
  assert.equal(weightOf("How are results ranked", "rank"), 1);
  // A description keeps them at the variant weight.
  assert.equal(weightOf("Index store opened lazily.", "open"), VARIANT_WEIGHT);
  assert.deepEqual(
    ["Where is x?", "does it close", "Returns the x", "Opened lazily"].map(isQuestion),
    [true, true, false, false],
  );
});

Deno.test("variants: -ing and -ed words give their base forms; other words none", () => {
  assert.deepEqual(wordVariants("bailing"), ["bail", "baile"]);
  assert.deepEqual(wordVariants("created"), ["creat", "create"]);
  assert.ok(wordVariants("dropped").includes("drop"));
  assert.ok(wordVariants("running").includes("run"));
  assert.ok(wordVariants("copied").includes("copy"));
  // Not inflections: too short, no vowel left, or no such ending.
  assert.deepEqual(wordVariants("string"), []);
  assert.deepEqual(wordVariants("red"), []);
  assert.deepEqual(wordVariants("speed"), []);
  assert.deepEqual(wordVariants("parse"), []);
});

Deno.test("restoredE: a stem that lost its e to the plural rule gets it back", () => {
  // The tokens' stemmer: `caches` → `cach`, `pushes` → `push`; `sizes` keeps its `e`.
  assert.deepEqual(queryTokens("initializes caches sizes"), ["initialize", "cach", "size"]);
  assert.equal(restoredE("cach"), "cache");
  assert.equal(restoredE("initialize"), null);
  assert.equal(restoredE("parse"), null);
  const known = new Set(["cach", "cache"]);
  const q = expandQuery(["cach"], (t) => known.has(t));
  assert.deepEqual(q, { terms: ["cach", "cache"], weights: [1, 1] });
});

Deno.test("compounds: neighbouring words written together and with underscores", () => {
  const c = compounds("Run fn before each test");
  assert.ok(c.includes("beforeeach"));
  assert.ok(c.includes("before_each"));
  assert.ok(c.includes("beforeeachtest"));
  assert.ok(!c.includes("runbefore"));
  assert.deepEqual(compounds("one"), []);
});

Deno.test("expandQuery: only forms the index knows are added, at a lower weight", () => {
  const known = new Set(["enable", "bailing", "bail", "beforeeach"]);
  const q = expandQuery(
    queryTokens("enables bailing before each"),
    (t) => known.has(t),
    "enables bailing before each",
  );
  const w = new Map(q.terms.map((t, i) => [t, q.weights[i]]));
  assert.equal(w.get("bailing"), 1);
  assert.equal(w.get("bail"), VARIANT_WEIGHT);
  assert.ok((w.get("beforeeach") ?? 0) > 0);
  assert.ok(!w.has("baile"), "a form the index does not know is not added");
});

function sym(name: string, line: number, endLine: number): SymbolRecord {
  return {
    name,
    qualifiedName: name,
    kind: "function",
    file: "a.js",
    line,
    startLine: line,
    endLine,
    signature: "",
    doc: "",
    parent: null,
    language: "javascript",
  };
}

function chunk(s: number, e: number, symbol: string, text: string): ChunkRecord {
  return {
    id: `a.js:${s}-${e}`,
    file: "a.js",
    startLine: s,
    endLine: e,
    symbol,
    kind: "function",
    language: "javascript",
    text,
  };
}

Deno.test("BM25F weights: a term's weight scales its share; weight 1 is the default", () => {
  const terms = fileTerms("a.js", [
    chunk(1, 1, "bail", "function bail(bail) { this.suite.bail(bail) }"),
    chunk(2, 2, "other", "function other() { return 1 }"),
  ], [sym("bail", 1, 1), sym("other", 2, 2)]);
  const lex = buildLexicalIndex([{ terms, rows: 2 }]);
  const plain = new Float32Array(2);
  const one = new Float32Array(2);
  const half = new Float32Array(2);
  const maxPlain = lex.score(["bail"], plain);
  assert.equal(lex.score(["bail"], one, undefined, [1]), maxPlain);
  assert.deepEqual([...one], [...plain]);
  const maxHalf = lex.score(["bail"], half, undefined, [0.5]);
  assert.ok(Math.abs(maxHalf - maxPlain / 2) < 1e-6);
  assert.ok(Math.abs(half[0] - plain[0] / 2) < 1e-6);
});

Deno.test("expandQuery: a spelled-out word adds the short form names use", () => {
  const known = new Set(["initialize", "init", "attr", "logger"]);
  const q = expandQuery(queryTokens("Initializes the logger attributes"), (t) => known.has(t));
  const w = new Map(q.terms.map((t, i) => [t, q.weights[i]]));
  assert.equal(w.get("init"), VARIANT_WEIGHT);
  assert.equal(w.get("attr"), VARIANT_WEIGHT);
  assert.equal(w.get("logger"), 1);
  assert.ok(ABBREVIATIONS.character.includes("char"));
  const h = expandQuery(queryTokens("Parses a hexadecimal digit"), (t) => t === "hex");
  assert.ok(h.terms.includes("hex"), "a short form mined from the training pairs");
  // Words that are keys of every object are no keys of the table.
  const c = expandQuery(["constructor", "hasownproperty"], () => true);
  assert.deepEqual(c.terms, ["constructor", "hasownproperty"]);
});

Deno.test("lexical search: 'bailing' finds bail, 'before each' beforeEach, 'initializes' init…", async () => {
  const root = await makeProject({
    "lib/mocha.js": `Mocha.prototype.bail = function (bail) {
  this.suite.bail(bail !== false);
  return this;
};

Mocha.prototype.grep = function (re) {
  this.options.grep = re;
  return this;
};
`,
    "lib/suite.js": `Suite.prototype.beforeEach = function (title, fn) {
  var hook = this._createHook(title, fn);
  this._beforeEach.push(hook);
  return this;
};

Suite.prototype.runTest = function (test, fn) {
  return test.run(fn);
};
`,
    "lib/serializer.js": `exports.deserialize = function deserialize(value) {
  return JSON.parse(value);
};

exports.serializeError = function serializeError(err) {
  return { message: err.message };
};
`,
    "lib/logging.js": `exports.initLogger = function initLogger(opts) {
  return createSink(opts);
};

exports.closeLogger = function closeLogger(logger) {
  logger.close();
};
`,
  });
  const indexDir = await tempIndexDir();
  const service = await ProjectService.open(root, { indexDir, embedder: "none", workers: 0 });
  try {
    await service.project.reindex();
    const a = await searchProject(service.project, "enables bailing on failure", {
      mode: "lexical",
    });
    assert.equal(a.snippets[0]?.symbol, "bail");
    const b = await searchProject(service.project, "run a hook before each test", {
      mode: "lexical",
    });
    assert.equal(b.snippets[0]?.symbol, "beforeEach");
    const c = await searchProject(service.project, "Deserializes a message", {
      mode: "lexical",
    });
    assert.equal(c.snippets[0]?.symbol, "deserialize");
    const d = await searchProject(service.project, "Initializes the logger", { mode: "lexical" });
    assert.equal(d.snippets[0]?.symbol, "initLogger");
  } finally {
    await service.close();
    await cleanup(root, indexDir);
  }
});
