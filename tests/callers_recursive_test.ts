/**
 * Callers include recursive and self call sites (issue 35): `codectx calls F` once left out
 * F's own calls of F that `codectx refs F` listed, and showed one line per caller when the
 * caller called twice. The JSON payload, the MCP text, the CLI text and `explain` all list
 * every call site.
 */

import assert from "node:assert/strict";
import { renderText } from "../src/mcp/render.ts";
import { callTool, cleanup, makeProject, runCli, tempIndexDir, withExecutor } from "./helpers.ts";

const FILES = {
  "walk.py": [
    "def walk(node, depth):", //  1
    "    if node is None:", //  2
    "        return 0", //  3
    "    left = walk(node.left, depth + 1)", //  4
    "    right = walk(node.right, depth + 1)", //  5
    "    return left + right + 1", //  6
    "", //  7
    "", //  8
    "def main():", //  9
    "    print(walk(None, 0))", // 10
    "    print(walk(None, 1))", // 11
    "",
  ].join("\n"),
  "fib.go": [
    "package fib", //  1
    "", //  2
    "func Fib(n int) int {", //  3
    "\tif n < 2 {", //  4
    "\t\treturn n", //  5
    "\t}", //  6
    "\ta := Fib(n - 1)", //  7
    "\tb := Fib(n - 2)", //  8
    "\treturn a + b", //  9
    "}", // 10
    "",
  ].join("\n"),
};

type Node = { name: string; call_file: string; call_lines: number[] };

Deno.test("get_call_graph JSON: the root's own calls are callers and callees, every line", async () => {
  await withExecutor(FILES, async (ex) => {
    const p = await callTool(ex, "get_call_graph", { symbol_name: "walk" });
    const callers = (p.callers as Node[]).map((n) => `${n.name} ${n.call_file}:${n.call_lines}`);
    assert.deepEqual(callers.sort(), ["main walk.py:10,11", "walk walk.py:4,5"]);
    const callees = (p.callees as Node[]).map((n) => `${n.name} ${n.call_file}:${n.call_lines}`);
    assert.deepEqual(callees, ["walk walk.py:4,5"]);
    const go = await callTool(ex, "get_call_graph", { symbol_name: "Fib" });
    assert.deepEqual(
      (go.callers as Node[]).map((n) => `${n.name} ${n.call_file}:${n.call_lines}`),
      ["Fib fib.go:7,8"],
    );
  });
});

Deno.test("get_call_graph MCP text and explain_symbol: recursive call sites are shown", async () => {
  await withExecutor(FILES, async (ex) => {
    const text = renderText(
      "get_call_graph",
      await callTool(ex, "get_call_graph", { symbol_name: "walk" }),
    );
    assert.match(text, /^- walk \(function\) walk\.py:1 ← recursive calls at walk\.py:4, 5$/m);
    assert.match(text, /^- main \(function\) walk\.py:9 ← calls at walk\.py:10, 11$/m);
    const explain = await callTool(ex, "explain_symbol", { symbol_name: "Fib" });
    const sites = (explain.callers as { name: string; line: number }[]).map((c) =>
      `${c.name}:${c.line}`
    );
    assert.deepEqual(sites, ["Fib:7", "Fib:8"]);
    assert.match(
      renderText("explain_symbol", explain),
      /^- Fib fib\.go:7, 8$/m,
    );
  });
});

Deno.test("codectx calls and explain print the recursive call sites", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  const cli = async (...args: string[]) => {
    const r = await runCli([...args, "--path", root, "--index-dir", indexDir]);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  try {
    const out = await cli("calls", "walk", "--depth", "1");
    assert.match(out, /^callers: 2$/m);
    assert.match(out, /^ {2}walk walk\.py:4, 5 \(recursive\)$/m);
    assert.match(out, /^ {2}main walk\.py:10, 11$/m);
    const explain = await cli("explain", "walk");
    assert.match(explain, /^- walk\.py: walk :4, 5; main :10, 11$/m);
  } finally {
    await cleanup(root, indexDir);
  }
});
