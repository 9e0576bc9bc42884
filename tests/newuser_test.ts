/**
 * What a new user met in a first session and was fixed: a symbol kind that does not exist
 * (`search_symbols` `kind: "banana"`) answered 200 with nothing found instead of a 400 naming
 * the field and the kinds there are, and every load of the web page logged a 404 for
 * `/favicon.ico` in the browser's console, and a class's view had no list of its members. On axios, `summarize_repo` opened with the README's
 * table of contents instead of its tagline, and named README.md an entry point ("server")
 * for the `app.listen(…)` of an example; `explain_symbol getAdapter` explained the signature in
 * `index.d.ts` rather than the code in `lib/adapters/adapters.js`; and a member of a module
 * whose default export is an object literal (`utils.isFormData()` after `import utils from
 * "./utils.js"`, `export default { isFormData, … }`) led nowhere: 2 of isFormData's 8
 * references were found; `from . import a, b` showed a's file only. On codectx itself the summary named `replace` (SearchWorkers.replace,
 * matched by name to 220 string `.replace()` calls) a key symbol of `src/`, and its context
 * window's "Called from" opened with those string calls, unmarked, before its 3 real call sites.
 */

import assert from "node:assert/strict";
import { firstParagraph } from "../src/context/summary.ts";
import { renderText } from "../src/mcp/render.ts";
import {
  callTool,
  cleanup,
  makeProject,
  type Payload,
  runCli,
  tempIndexDir,
  withExecutor,
} from "./helpers.ts";
import { http, obj } from "./surfaces_helpers.ts";
import { chromium } from "npm:playwright-core@1.65.1";
import { CHROMIUM, needChromium, open, serveProject } from "./web_browser_helpers.ts";

const FILES = {
  "app/util.py": "def parse_config(path):\n    return path\n",
  "app/store.py":
    "class Store:\n    def put(self, k):\n        return k\n\n    def get(self, k):\n        return k\n",
  "app/main.py": "from app.util import parse_config\n\nparse_config('x')\n",
};

Deno.test("a kind that is no symbol kind is a 400 naming kind and the kinds there are", async () => {
  const web = await serveProject(FILES);
  try {
    const bad = await http(`${web.srv.url}/api/symbols?q=parse&kind=banana`);
    assert.equal(bad.status, 400, JSON.stringify(bad.json));
    const message = String(obj(obj(bad.json).error).message);
    assert.match(message, /kind 'banana'/);
    assert.match(message, /function, method, constructor, class/);
    // A real kind still filters.
    const ok = await http(`${web.srv.url}/api/symbols?q=parse&kind=function`);
    assert.equal(ok.status, 200);
    const names = (obj(ok.json).symbols as { qualified_name: string }[]).map((s) =>
      s.qualified_name
    );
    assert.deepEqual(names, ["parse_config"]);
  } finally {
    await web.stop();
  }
});

Deno.test("the web page: no failed request or console error; a class lists its members", async () => {
  await needChromium();
  const web = await serveProject(FILES);
  // A plain (not persistent) context: it asks for the page's icon as a browser tab does.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  try {
    const page = await browser.newPage();
    const failed: string[] = [];
    page.on("response", (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    page.on("console", (m) => {
      if (m.type() === "error") failed.push(`console: ${m.text()}`);
    });
    await open(page, `${web.srv.url}/#/search?q=parse%20config`);
    await open(page, `${web.srv.url}/#/file/app/main.py`);
    // The icon is asked for after the page has loaded.
    await page.waitForLoadState("networkidle");
    assert.deepEqual(failed, []);
    // A class's view lists its members, each a link (the source alone is cut at 200 lines).
    await open(page, `${web.srv.url}/#/symbol/Store`);
    const members = await page.$$eval("#symbol-members a", (as) => as.map((a) => a.textContent));
    assert.deepEqual(members, ["put", "get"]);
  } finally {
    await browser.close();
    await web.stop();
  }
});

/** axios's README, in short: sponsors, the tagline in a centered `<p>`, a table of contents. */
const README = [
  '<h3 align="center"> Gold sponsors <br> </h3> <table><tr><td><p>Some sponsor</p></td></tr></table>',
  "",
  '<div align="center"><img src="logo.svg" alt="logo"></div>',
  "",
  '<p align="center">Promise based HTTP client for the browser and node.js</p>',
  "",
  "## Table of Contents",
  "",
  "  - [Features](#features)",
  "  - [Installing](#installing)",
  "",
  "## Example",
  "",
  "```js",
  "const app = express();",
  "app.listen(3000);",
  "```",
  "",
].join("\n");

Deno.test("summarize_repo: a README's tagline, and no entry point in a README's example", async () => {
  assert.equal(firstParagraph(README), "Promise based HTTP client for the browser and node.js");
  // A table of contents is no paragraph: the prose after it is.
  assert.equal(
    firstParagraph("# T\n\n- [A](#a)\n- [B](#b)\n\nThe library does X.\n"),
    "The library does X.",
  );
  // Still a paragraph: prose that merely holds a link.
  assert.equal(
    firstParagraph("# T\n\nSee [the docs](d.md) first.\n"),
    "See [the docs](d.md) first.",
  );
  await withExecutor({
    "README.md": README,
    "lib/server.js": "import http from 'node:http';\nhttp.createServer(() => {}).listen(80);\n",
    "lib/util.js": "export function add(a, b) {\n  return a + b;\n}\n",
    // A mere mention of a server framework starts nothing.
    "lib/notes.js": "// unlike Actix, this file serves nothing\nexport const x = 1;\n",
  }, async (ex) => {
    const p = await callTool(ex, "summarize_repo", {});
    const entries = (p.entry_points as Payload[]).map((e) => `${e.file} ${e.kind}`);
    assert.deepEqual(entries, ["lib/server.js server"]);
    assert.match(String(p.text), /Promise based HTTP client for the browser and node\.js/);
  });
});

Deno.test("explain_symbol, search_symbols: code before a declaration file's signature", async () => {
  await withExecutor({
    "index.d.ts": "export function pick(names: string[]): string;\n",
    "lib/adapters.js": [
      "export default {",
      "  pick: (names) => {",
      "    return names.find((n) => n !== '') ?? 'xhr';",
      "  },",
      "};",
      "",
    ].join("\n"),
  }, async (ex) => {
    const p = await callTool(ex, "explain_symbol", { symbol_name: "pick" });
    assert.equal(obj(p.symbol as never).file, "lib/adapters.js");
    const refs = await callTool(ex, "find_references", { symbol_name: "pick" });
    assert.deepEqual(
      (refs.definitions as Payload[]).map((d) => d.file),
      ["lib/adapters.js", "index.d.ts"],
    );
    // A partial name lists them in the same order.
    const found = await callTool(ex, "search_symbols", { query: "pic" });
    assert.deepEqual(
      (found.symbols as Payload[]).map((d) => d.file),
      ["lib/adapters.js", "index.d.ts"],
    );
  });
});

Deno.test("references through a default export that is an object literal", async () => {
  await withExecutor({
    "lib/utils.js": [
      "const isFormData = (thing) => thing instanceof FormData;",
      "function extend(a, b) {",
      "  return Object.assign(a, b);",
      "}",
      "export default {",
      "  isFormData,",
      "  extend,",
      "  getAdapter: (names) => names[0],",
      "};",
      "",
    ].join("\n"),
    "lib/main.js": [
      "import utils from './utils.js';",
      "",
      "export function run(data) {",
      "  if (utils.isFormData(data)) return utils.getAdapter(['xhr']);",
      "  return utils.extend({}, data);",
      "}",
      "",
    ].join("\n"),
  }, async (ex) => {
    const refs = await callTool(ex, "find_references", { symbol_name: "isFormData" });
    const lines = (refs.references as Payload[]).map((r) => `${r.file}:${r.line} ${r.kind}`);
    assert.ok(lines.includes("lib/main.js:4 call"), lines.join("\n"));
    const g = await callTool(ex, "get_call_graph", { symbol_name: "run" });
    const callees = (g.callees as Payload[]).map((c) => `${c.name} ${c.file}:${c.line}`).sort();
    assert.deepEqual(callees, [
      "extend lib/utils.js:2",
      "getAdapter lib/utils.js:8",
      "isFormData lib/utils.js:1",
    ]);
  });
});

Deno.test("summarize_repo, get_context: calls matched by name alone are no evidence", async () => {
  const callers = Array.from({ length: 12 }, (_, i) =>
    [
      `export function clean${i}(s: string): string {`,
      `  return s.replace("a", "b");`,
      "}",
      "",
    ].join("\n")).join("\n");
  const files: Record<string, string> = {
    "src/pool.ts": [
      "export class Pool {",
      "  /** Swaps a worker. */",
      "  replace(slot: number): number {",
      "    return slot + 1;",
      "  }",
      "}",
      "",
    ].join("\n"),
    "src/text.ts": callers,
    "src/config.ts": [
      "export interface Config {",
      "  name: string;",
      "}",
      "export function load(c: Config): Config {",
      "  return c;",
      "}",
      "",
    ].join("\n"),
    "src/main.ts": [
      "import { type Config, load } from './config.ts';",
      "export function a(c: Config): Config {",
      "  return load(c);",
      "}",
      "export function b(c: Config): Config {",
      "  return load(c);",
      "}",
      "",
    ].join("\n"),
  };
  await withExecutor(files, async (ex) => {
    const p = await callTool(ex, "summarize_repo", {});
    const keys = (p.key_symbols as Payload[]).map((s) => String(s.qualified_name));
    assert.ok(!keys.includes("Pool.replace"), keys.join(", "));
    assert.ok(keys.includes("Config") && keys.includes("load"), keys.join(", "));
  });
  const user = [
    "import { Pool } from './pool.ts';",
    "export function swap(p: Pool): number {",
    "  return p.replace(1);",
    "}",
    "",
  ].join("\n");
  await withExecutor({ ...files, "src/user.ts": user }, async (ex) => {
    // get_context: the real call site, not the string replaces; a guess is said to be one.
    const ctx = await callTool(ex, "get_context", { symbol_name: "Pool.replace" });
    const called = String(ctx.text).split("## Called from")[1] ?? "";
    const sites = called.split("\n").filter((l) => l.startsWith("// "));
    assert.match(sites[0], /src\/user\.ts:3 in swap/);
    for (const site of sites.slice(1)) assert.match(site, /in clean\d+, matched by name only$/);
    const guess = await callTool(ex, "get_context", { symbol_name: "clean0" });
    assert.match(String(guess.text), /method Pool\.replace \(matched by name only\)/);
  });
});

Deno.test("get_dependencies: `from . import a, b` names every module it imports", async () => {
  const files = {
    "pkg/__init__.py": "from . import a, b\n",
    "pkg/a.py": "X = 1\n",
    "pkg/b.py": "Y = 2\n",
  };
  await withExecutor(files, async (ex) => {
    const p = await callTool(ex, "get_dependencies", { file_path: "pkg/__init__.py" });
    const [imp] = p.imports as Payload[];
    assert.deepEqual([imp.resolved, imp.also], ["pkg/a.py", ["pkg/b.py"]]);
    assert.match(renderText("get_dependencies", p), /^- 1: pkg\/a\.py, pkg\/b\.py \(a, b\)$/m);
  });
  const root = await makeProject(files);
  const indexDir = await tempIndexDir();
  try {
    const r = await runCli(["deps", "pkg/__init__.py", "--path", root, "--index-dir", indexDir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^ +1 {2}\. -> pkg\/a\.py, pkg\/b\.py {2}\[a, b\]$/m);
  } finally {
    await cleanup(root, indexDir);
  }
});
