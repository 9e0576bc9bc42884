/**
 * analyze_quality on JavaScript and TypeScript counts a function expression that is named only
 * by itself — passed as an argument, an operand of `&&`, returned, an IIFE — as a function of
 * its own (axios's `httpAdapter` → `dispatchHttpRequest`, its largest function, was missing
 * from `worst_functions`, and its inner functions showed as top-level ones).
 */

import assert from "node:assert/strict";
import { callTool, type Payload, withExecutor } from "./helpers.ts";

const ADAPTER = [
  "export default ok && function adapter(config) {",
  "  return wrap(async function dispatch(resolve, reject) {",
  "    if (config.a) resolve(1);",
  "    else if (config.b) reject(2);",
  "    function onDone() {",
  "      return config.c ? 1 : 2;",
  "    }",
  "    onDone();",
  "  });",
  "};",
  "const f = function g(x) { return x ? 1 : 0; };",
  "(function iife() { if (a) b(); })();",
  "function make() {",
  "  return function made(y) { return y || 0; };",
  "}",
  "",
].join("\n");

/** `qualified_name line complexity` of each function analyze_quality reports for `path`. */
async function functions(files: Record<string, string>, path: string): Promise<string[]> {
  let out: string[] = [];
  await withExecutor(files, async (ex) => {
    const p = await callTool(ex, "analyze_quality", { path, max_functions: 50 });
    out = (p.worst_functions as Payload[])
      .map((f) => `${f.qualified_name} ${f.line} ${f.complexity}`)
      .sort();
  });
  return out;
}

const WANT = [
  "adapter 1 1",
  "adapter.dispatch 2 3",
  "adapter.dispatch.onDone 5 2",
  "f 11 2", // named by its variable, once, not also as `g`
  "iife 12 2",
  "make 13 1",
  "make.made 14 2",
];

Deno.test("analyze_quality: JavaScript function expressions named only by themselves", async () => {
  assert.deepEqual(await functions({ "a.js": ADAPTER }, "a.js"), WANT);
});

Deno.test("analyze_quality: the same in TypeScript (its metrics inherit JavaScript's)", async () => {
  assert.deepEqual(await functions({ "a.ts": ADAPTER }, "a.ts"), WANT);
});
