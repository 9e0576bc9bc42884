/**
 * Hop 1 of `get_impact`: the definitions that use a changed one, on small projects written
 * here — each case a kind of use `bench/impact.ts` found missing on a real project.
 */

import assert from "node:assert/strict";
import { createExecutor } from "../executor.ts";
import type { GetImpactPayload } from "./schema.ts";

/** The hop-1 definitions `get_impact` finds for `symbols` in a project made of `files`. */
async function hopOne(files: Record<string, string>, symbols: string[]): Promise<string[]> {
  const base = await Deno.makeTempDir({ prefix: "codectx-hop-one-" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${base}/p/${path}`.replace(/\/[^/]+$/, ""), { recursive: true });
    await Deno.writeTextFile(`${base}/p/${path}`, text);
  }
  const ex = await createExecutor(`${base}/p`, { indexDir: `${base}/index`, embedder: "none" });
  try {
    assert.ok((await ex.execute({ tool_name: "index_project", arguments: {} })).success);
    const r = await ex.execute({ tool_name: "get_impact", arguments: { symbols, depth: 1 } });
    assert.ok(r.success, r.error ?? "");
    const p = r.result_payload as GetImpactPayload;
    return p.impacted.map((x) => x.qualified_name).sort();
  } finally {
    await ex.close();
    await Deno.remove(base, { recursive: true });
  }
}

Deno.test("get_impact hop 1: functions declared inside an anonymous function", async (t) => {
  // moment's tasks/transpile.js: every helper of a Grunt task file is declared in
  // `module.exports = function (grunt) {…}`; their calls were dropped as locals.
  await t.step("module.exports = function () { function f() {} … }", async () => {
    const found = await hopOne({
      "tasks/build.js": [
        "module.exports = function (grunt) {",
        "    function headerOf(file) {",
        "        return grunt.file.read(file);",
        "    }",
        "    function buildAll(opts) {",
        "        var a = 1,",
        "            header = headerOf(opts.file);",
        "        return header + a;",
        "    }",
        "    grunt.registerTask('build', function () {",
        "        buildAll({});",
        "    });",
        "};",
        "",
      ].join("\n"),
    }, ["headerOf"]);
    assert.deepEqual(found, ["buildAll"]);
  });
  // rxjs's retry-when.ts: helpers declared in an operator assigned under a computed key.
  await t.step("proto[key] = function () { … (s) => { function f() {} … } }", async () => {
    const found = await hopOne({
      "src/retry.ts": [
        "export const retryWhen = Symbol('retryWhen');",
        "Observable.prototype[retryWhen] = function (notifier: () => void) {",
        "  return create((subscriber) => {",
        "    function startAttempt(): void {",
        "      notifier();",
        "    }",
        "    function drainAttempts(): void {",
        "      startAttempt();",
        "    }",
        "    drainAttempts();",
        "  });",
        "};",
        "",
      ].join("\n"),
    }, ["startAttempt"]);
    assert.deepEqual(found, ["drainAttempts"]);
  });
});

Deno.test("get_impact hop 1: a function a barrel re-exports from a file of its name", async () => {
  // rxjs.dev's decision-tree tools: `import { flattenApiList } from './src/lib'`, whose
  // index.ts says `export * from './flattenApiList'` — the name was read as the file.
  const found = await hopOne({
    "src/lib/flattenApiList.ts": [
      "export function flattenApiList(list: number[]): number[] {",
      "  return list;",
      "}",
      "",
    ].join("\n"),
    "src/lib/index.ts": "export * from './flattenApiList';\n",
    "index.ts": [
      "import { flattenApiList } from './src/lib';",
      "",
      "export function generate(docs: number[]): number[] {",
      "  return flattenApiList(docs);",
      "}",
      "",
    ].join("\n"),
  }, ["flattenApiList"]);
  assert.deepEqual(found, ["generate"]);
});
