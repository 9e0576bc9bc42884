/**
 * The pieces context tools are made of, each on its own: token counts, packing to a budget,
 * PageRank, the symbol resolver, manifests, imports and README paragraphs, the chat
 * endpoint's configuration. The tools themselves are in `context_test.ts`.
 */

import assert from "node:assert/strict";
import { getEncoding } from "npm:js-tiktoken@1.0.21";
import { fileImports } from "../src/context/imports.ts";
import { chatEndpoint, llmConfigFromEnv } from "../src/context/llm.ts";
import { readManifest } from "../src/context/manifests.ts";
import { clampText, fitBudget } from "../src/context/pack.ts";
import { pageRank } from "../src/context/rank.ts";
import { mentionedNames } from "../src/context/retrieve.ts";
import { firstParagraph } from "../src/context/summary.ts";
import { tokenCounter } from "../src/context/tokens.ts";
import { CodectxError } from "../src/errors.ts";
import { normalizeName, resolveSymbol, tableOfSymbols } from "../src/graph/lookup.ts";
import type { SymbolRecord } from "../src/types.ts";

const FIXTURE = new URL("./fixtures/context/", import.meta.url).pathname;

function sym(name: string, extra: Partial<SymbolRecord> = {}): SymbolRecord {
  return {
    name: name.split(".").pop()!,
    qualifiedName: name,
    kind: "function",
    file: "a.py",
    line: 1,
    startLine: 1,
    endLine: 2,
    signature: `def ${name}():`,
    doc: "",
    parent: null,
    language: "python",
    ...extra,
  };
}

Deno.test("tokens: codectx's cl100k_base counter counts as js-tiktoken's whole-text encoder", async () => {
  const tc = await tokenCounter();
  assert.equal(tc.count("hello world"), 2);
  const reference = getEncoding("cl100k_base");
  const texts = [
    "",
    "\n\n\n",
    "  \n  x",
    "a<|endoftext|>b",
    "<|endoftext|> plain text",
    "日本語のテキスト 123456",
    "export const x = new Map<string, number>(); // 世界 🙂",
    "\t\t}\n\n\n    return",
    "x   \n",
    "I'LL SAY it's 1234567 o'clock\r\n\r\n",
    "lone \ud800 surrogate",
    "averyveryverylongidentifierwithoutspaces".repeat(20),
    await Deno.readTextFile(new URL("../src/context/window.ts", import.meta.url)),
    await Deno.readTextFile(`${FIXTURE}shop/cart.py`),
  ];
  for (const t of texts) {
    assert.equal(tc.count(t), reference.encode(t, [], []).length, JSON.stringify(t.slice(0, 40)));
  }
});

Deno.test("pack: fitBudget finds the largest amount that fits; clampText never exceeds", async () => {
  const tc = await tokenCounter();
  const lines = Array.from({ length: 300 }, (_, i) => `line number ${i} with some words`);
  for (const max of [1, 2, 3, 7, 20, 100, 999]) {
    const fit = fitBudget(0, lines.length, max, tc, (n) => lines.slice(0, n).join("\n"))!;
    assert.ok(fit.tokens <= max);
    if (fit.amount < lines.length) {
      assert.ok(tc.count(lines.slice(0, fit.amount + 1).join("\n")) > max);
    }
    const c = clampText("averyveryverylongidentifierwithoutspaces".repeat(4), max, tc);
    assert.ok(c.tokens <= max && tc.count(c.text) === c.tokens);
  }
  assert.equal(fitBudget(0, 5, 0, tc, () => "x"), null);
});

Deno.test("rank: PageRank favours what is referenced, from referenced referrers", () => {
  const r = pageRank(4, [
    { from: 0, to: 2, weight: 1 },
    { from: 1, to: 2, weight: 1 },
    { from: 2, to: 3, weight: 1 },
  ]);
  assert.ok(Math.abs(r.reduce((a, b) => a + b, 0) - 1) < 1e-6);
  assert.ok(r[2] > r[0] && r[3] > r[0]);
  assert.equal(pageRank(0, []).length, 0);
});

Deno.test("resolve: plain, qualified, module path, loose spelling; near names when unknown", () => {
  const symbols = [
    sym("parse_config", { file: "pkg/config.py", line: 12 }),
    sym("Session", { kind: "class", file: "net/session.py", endLine: 40 }),
    sym("Session.request", {
      kind: "method",
      parent: "Session",
      file: "net/session.py",
      line: 5,
    }),
    sym("request", { file: "net/api.py" }),
    sym("request", { file: "tests/test_api.py" }),
  ];
  const table = tableOfSymbols(symbols);
  assert.equal(normalizeName("Session::request()"), "Session.request");
  assert.equal(resolveSymbol(table, "Session.request").symbol.file, "net/session.py");
  assert.equal(resolveSymbol(table, "Session#request").symbol.kind, "method");
  assert.equal(resolveSymbol(table, "net.session.Session.request").symbol.line, 5);
  assert.equal(resolveSymbol(table, "pkg.config.parse_config").symbol.line, 12);
  assert.equal(resolveSymbol(table, "PARSE_CONFIG").symbol.name, "parse_config");
  const amb = resolveSymbol(table, "request");
  assert.equal(amb.symbol.file, "net/api.py"); // main code before tests
  assert.deepEqual(amb.candidates.map((c) => c.qualifiedName), ["Session.request", "request"]);
  assert.throws(
    () => resolveSymbol(table, "parseConfig"),
    (e: unknown) =>
      e instanceof CodectxError && e.code === "not_found" &&
      /did you mean parse_config \(pkg\/config\.py:12\)/.test(e.message),
  );
});

Deno.test("manifests: every format yields dependencies with scope", () => {
  const r = (path: string, text: string) =>
    readManifest(path, text, (p) => p === "src/app/cli.py")!;
  const pkg = r(
    "package.json",
    '{"name":"x","bin":{"x":"./bin/x.js"},"dependencies":{"a":"^1"},"devDependencies":{"b":"2"}}',
  );
  assert.deepEqual(pkg.dependencies.map((d) => [d.name, d.version, d.scope]), [[
    "a",
    "^1",
    "runtime",
  ], ["b", "2", "dev"]]);
  assert.deepEqual(pkg.entries, [{ file: "bin/x.js", kind: "package.json bin 'x'" }]);
  const deno = r(
    "deno.jsonc",
    '{ /* c */ "imports": { "h": "npm:hono@4.1.0", "p": "jsr:@std/path@^1", }, // x\n }',
  );
  assert.deepEqual(deno.dependencies.map((d) => `${d.name}@${d.version}`), [
    "hono@4.1.0",
    "@std/path@^1",
  ]);
  const py = r(
    "pyproject.toml",
    '[project]\nname="app"\ndependencies=["requests>=2; python_version>\'3\'","Flask[async]"]\n[project.scripts]\napp="app.cli:main"\n[tool.poetry.dependencies]\npython="^3.11"\nrich="^13"\n',
  );
  assert.deepEqual(py.dependencies.map((d) => `${d.name} ${d.version} ${d.scope}`), [
    "requests >=2 runtime",
    "Flask  runtime",
    "rich ^13 runtime",
  ]);
  assert.equal(py.entries[0].file, "src/app/cli.py");
  const req = r("requirements-dev.txt", "# c\npytest==8.0 # pinned\n-e .\nblack\n");
  assert.deepEqual(req.dependencies.map((d) => `${d.name}${d.version}:${d.scope}`), [
    "pytest==8.0:dev",
    "black:dev",
  ]);
  const go = r(
    "go.mod",
    "module m\nrequire x.org/a v1.0.0\nrequire (\n\ty.org/b v0.2.0 // indirect\n)\n",
  );
  assert.deepEqual(go.dependencies.map((d) => `${d.name} ${d.version} ${d.scope}`), [
    "x.org/a v1.0.0 runtime",
    "y.org/b v0.2.0 indirect",
  ]);
  assert.equal(go.name, "m");
  const cargo = r(
    "Cargo.toml",
    '[package]\nname="c"\n[dependencies]\nserde={version="1",features=["derive"]}\nlocal={path="../l"}\n[build-dependencies]\ncc="1"\n',
  );
  assert.deepEqual(cargo.dependencies.map((d) => `${d.name} ${d.version} ${d.scope}`), [
    "serde 1 runtime",
    "local path:../l runtime",
    "cc 1 build",
  ]);
  const pom = r(
    "pom.xml",
    "<project><properties><v>9</v></properties><dependencies><dependency><groupId>g</groupId><artifactId>a</artifactId><version>${v}</version><scope>test</scope></dependency></dependencies></project>",
  );
  assert.deepEqual(pom.dependencies.map((d) => `${d.name} ${d.version} ${d.scope}`), [
    "g:a 9 test",
  ]);
  const gradle = r(
    "build.gradle.kts",
    'dependencies {\n  implementation("g:a:1.0")\n  testImplementation(project(":core"))\n}\n',
  );
  assert.deepEqual(gradle.dependencies.map((d) => `${d.name} ${d.version} ${d.scope}`), [
    "g:a 1.0 runtime",
    ":core project test",
  ]);
  assert.equal(readManifest("Cargo.toml", "not = [toml"), null);
  assert.equal(readManifest("setup.cfg", "x"), null);
});

Deno.test("imports from their recorded spans, README paragraphs from text", () => {
  const lines = ["import os", "from x import (", "  a,", ")", "", "def f():", "    import re"];
  const py = fileImports([1, 1, 2, 4, 7, 7], lines, [
    { kind: "function", startLine: 6, endLine: 7 } as SymbolRecord,
  ]);
  assert.deepEqual(py.map((i) => [i.line, i.endLine, i.text.length]), [[1, 1, 1], [2, 4, 3]]);
  // A class is no function: an import in its body is still shown.
  const inClass = fileImports([7, 7], lines, [
    { kind: "class", startLine: 6, endLine: 7 } as SymbolRecord,
  ]);
  assert.deepEqual(inClass.map((i) => i.text), [["    import re"]]);
  assert.equal(
    firstParagraph("# T\n\n[![b](x)](y)\n\nFirst line\nsecond line.\n\nMore."),
    "First line second line.",
  );
  assert.equal(firstParagraph("Title\n=====\n\n.. image:: x\n\nBody text.\n"), "Body text.");
});

Deno.test("llm config: endpoint forms and environment", () => {
  assert.equal(chatEndpoint("http://127.0.0.1:8080"), "http://127.0.0.1:8080/v1/chat/completions");
  assert.equal(chatEndpoint("http://h/v1/"), "http://h/v1/chat/completions");
  assert.equal(
    chatEndpoint("http://h/api/v1/chat/completions"),
    "http://h/api/v1/chat/completions",
  );
  assert.equal(llmConfigFromEnv(() => undefined), null);
  const env: Record<string, string> = { CODECTX_LLM_URL: "http://h:1", CODECTX_LLM_KEY: "k" };
  const cfg = llmConfigFromEnv((n) => env[n])!;
  assert.equal(cfg.url, "http://h:1/v1/chat/completions");
  assert.equal(cfg.key, "k");
  assert.ok(cfg.timeoutMs > 0 && cfg.model.length > 0);
  assert.deepEqual(mentionedNames("Why does `Cart.total` call parse_config() and getRate?"), [
    "Cart.total",
    "parse_config",
    "getRate",
  ]);
});

/** A chat-completions server on an ephemeral loopback port; `mode` picks its behaviour. */
