/**
 * `codectx calls` as a new user reads it: a callee two hops away hangs under the callee
 * that calls it, and a call through a receiver of unknown type is matched by name only to
 * a real member, never to a function's own local (`def helper` inside `def outer`,
 * `const push = …` in a method), and says so (in `codectx explain` too).
 */

import assert from "node:assert/strict";
import { renderText } from "../src/mcp/render.ts";
import { callTool, cleanup, makeProject, runCli, tempIndexDir, withExecutor } from "./helpers.ts";

const FILES = {
  "m.py": [
    "def a():",
    "    b()",
    "    c()",
    "",
    "def b():",
    "    d()",
    "",
    "def c():",
    "    e()",
    "",
    "def d():",
    "    pass",
    "",
    "def e():",
    "    pass",
    "",
    "def outer():",
    "    def helper():",
    "        pass",
    "    helper()",
    "",
    "def g(x):",
    "    x.helper()",
    "    x.only_here()",
    "",
    "class K:",
    "    def only_here(self):",
    "        pass",
    "",
  ].join("\n"),
  "u.ts": [
    "export function table() {",
    "  return {",
    "    view() {",
    "      const push = (m: number[], v: number) => m.push(v);",
    "      return push;",
    "    },",
    "  };",
    "}",
    "",
    "export function use(kept: string[], t: ReturnType<typeof table>) {",
    "  kept.push('x');",
    "  t.view();",
    "}",
    "",
  ].join("\n"),
};

/** The lines after `callees: N` of `codectx calls`'s output. */
function callees(stdout: string): string[] {
  const lines = stdout.trimEnd().split("\n");
  return lines.slice(lines.findIndex((l) => l.startsWith("callees:")) + 1);
}

Deno.test("codectx calls: depth 2 prints a tree, name-only matches say so", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  const calls = async (...args: string[]) => {
    const r = await runCli(["calls", ...args, "--path", root, "--index-dir", indexDir]);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  try {
    // d is b's callee and e is c's: each under its own caller, not both under c.
    assert.deepEqual(callees(await calls("a", "--depth", "2")), [
      "  b m.py:5 (line 2)",
      "    d m.py:11 (line 6)",
      "  c m.py:8 (line 3)",
      "    e m.py:14 (line 9)",
    ]);
    // outer's local helper is no member of x; K.only_here is the one member of its name.
    assert.deepEqual(callees(await calls("g")), [
      "  helper external (line 23)",
      "  K.only_here m.py:27 (by name only) (line 24)",
    ]);
    // kept.push is not the `push` local to table.view; t.view is the object's method.
    const use = callees(await calls("use"));
    assert.ok(!use.some((l) => l.includes("table.view.push")), use.join("\n"));
    assert.ok(use.some((l) => /^ {2}push (unresolved|external) /.test(l)), use.join("\n"));
    assert.ok(use.some((l) => /^ {2}table\.view u\.ts:3\b/.test(l)), use.join("\n"));
  } finally {
    await cleanup(root, indexDir);
  }
});

Deno.test("codectx explain: a callee matched by name only says so", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  try {
    const r = await runCli(["explain", "g", "--path", root, "--index-dir", indexDir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Calls[^\n]*\bK\.only_here :27, by name only\b/m);
    const main = await runCli(["explain", "a", "--path", root, "--index-dir", indexDir]);
    assert.match(main.stdout, /^Calls[^\n]*[:;] b :5(;|$)/m);
  } finally {
    await cleanup(root, indexDir);
  }
});

Deno.test("MCP text of get_call_graph: an external callee is not 'by name only'", async () => {
  await withExecutor({ "u.ts": FILES["u.ts"] }, async (ex) => {
    const text = renderText(
      "get_call_graph",
      await callTool(ex, "get_call_graph", { symbol_name: "use" }),
    );
    assert.match(text, /^- push \(external\) ← call at u\.ts:11$/m);
  });
});

Deno.test("a command answers from an index brought up to date: a file edited since counts", async () => {
  const root = await makeProject({ "m.py": "def alpha():\n    return 1\n" });
  const indexDir = await tempIndexDir();
  const refs = async (...more: string[]) => {
    const r = await runCli(["refs", "alpha", "--path", root, "--index-dir", indexDir, ...more]);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  try {
    // The definition the header names is not counted among the references.
    assert.match(
      await refs(),
      /^alpha \(function m\.py:1-2\): no references; no other line of code holds the name$/m,
    );
    await Deno.writeTextFile(`${root}/m.py`, "def alpha():\n    return 1\n\n\nalpha()\n");
    // --no-update answers from the index as it is: the edit is not read yet.
    assert.match(
      await refs("--no-update"),
      /: no references; no other line of code holds the name$/m,
    );
    assert.match(
      await refs(),
      /: 1 reference in 1 file; lines are calls unless marked\nm\.py\n {2}5: alpha\(\)$/m,
    );
    // The same for `codectx tool` and `codectx quality`, which open their executor themselves.
    await Deno.writeTextFile(`${root}/n.py`, "def beta(x):\n    return 1 if x else 2\n");
    const tool = await runCli([
      "tool",
      "search_symbols",
      "--args",
      '{"query": "beta"}',
      "--path",
      root,
      "--index-dir",
      indexDir,
    ]);
    assert.match(tool.stdout, /"qualified_name": "beta"/);
    await Deno.writeTextFile(`${root}/o.py`, "def gamma(y):\n    return 3 if y else 4\n");
    const quality = await runCli(["quality", "--path", root, "--index-dir", indexDir]);
    assert.equal(quality.code, 0, quality.stderr);
    assert.match(quality.stdout, /over 3 code files/);
  } finally {
    await cleanup(root, indexDir);
  }
});

Deno.test("codectx ask waits for the vectors, as codectx search does: a source only they find", async () => {
  // No word of the question is in the code: only the vectors (codectx-code) find the answer.
  const root = await makeProject({
    "app/crypto_util.py": [
      "import hashlib",
      "",
      "",
      "def compute_digest(secret, salt):",
      "    return hashlib.sha256(salt + secret).hexdigest()",
      "",
      "",
      "def read_settings(path):",
      "    with open(path) as f:",
      "        return f.read()",
      "",
    ].join("\n"),
  });
  const indexDir = await tempIndexDir();
  try {
    const r = await runCli([
      "ask",
      "hash a user password",
      "--json",
      "--path",
      root,
      "--index-dir",
      indexDir,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const sources = JSON.parse(r.stdout).sources as Array<{ symbol: string }>;
    assert.equal(sources[0]?.symbol, "compute_digest", r.stdout);
  } finally {
    await cleanup(root, indexDir);
  }
});
