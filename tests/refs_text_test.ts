/**
 * `find_references` as text, on what blind assistants misread (issue 35: nova, tmux): the
 * header counts the lines it lists (the definition it names is not one of them), every line
 * names its enclosing function, an exact line among name-only ones says so, a test file's
 * read is told from its calls, and a C call of a function defined in another file is exact,
 * its prototype a declaration. The MCP text and `codectx refs` print the same.
 */

import assert from "node:assert/strict";
import { renderText } from "../src/mcp/render.ts";
import { print } from "../src/tools/find_references/cli.ts";
import type { FindReferencesPayload } from "../src/tools/find_references/schema.ts";
import { callTool, has, type Payload, referenceLines, withExecutor } from "./helpers.ts";

/** The tool's text, checked to be the CLI's too. */
function text(p: Payload): string {
  const mcp = renderText("find_references", p);
  assert.equal(print(p as unknown as FindReferencesPayload).out.join("\n"), mcp);
  return mcp;
}

const C = {
  "job.h": "struct job;\nstruct job *job_run(const char *);\nint job_count(void);\n",
  "job.c": '#include "job.h"\n\nstruct job *\njob_run(const char *cmd)\n{\n\treturn 0;\n}\n',
  "main.c": [
    '#include "job.h"', // 1
    "", // 2
    "int main(void)", // 3
    "{", // 4
    '\tjob_run("a");', // 5
    '\tjob_run("b");', // 6
    "\treturn 0;", // 7
    "}", // 8
    "",
  ].join("\n"),
};

Deno.test("refs in C: a call across files is exact, a prototype a declaration, the count what is listed", async () => {
  await withExecutor(C, async (ex) => {
    const p = await callTool(ex, "find_references", { symbol_name: "job_run" });
    has(
      referenceLines(p),
      "job.c:4 definition exact",
      "job.h:2 declaration exact",
      "main.c:5 call exact",
      "main.c:6 call exact",
    );
    const t = text(p);
    assert.match(
      t,
      /^job_run \(function job\.c:4-7\): 3 references in 2 files; lines are calls unless marked$/m,
    );
    assert.match(t, /^job\.h\n {2}2 declaration: struct job \*job_run\(const char \*\);$/m);
    assert.match(t, /^ {2}6 main: job_run\("b"\);$/m);
    assert.doesNotMatch(t, /inferred|receiver/);
  });
});

const PY = {
  "pkg/__init__.py": "",
  "pkg/quota.py": [
    "class TooMany(Exception):", // 1
    "    pass", // 2
    "", // 3
    "", // 4
    "def check(n):", // 5
    "    if n > 1:", // 6
    "        raise TooMany()", // 7
    "    if n > 2:", // 8
    "        raise TooMany()", // 9
    "",
  ].join("\n"),
  "pkg/client.py": [
    "class Client:", // 1
    "    def delete(self, x):", // 2
    "        return x", // 3
    "", // 4
    "    def delete_all(self, xs):", // 5
    "        for x in xs:", // 6
    "            self.delete(x)", // 7
    "",
  ].join("\n"),
  "pkg/other.py": [
    "def f(c):", // 1
    "    c.delete(1)", // 2
    "", // 3
    "", // 4
    "def g(c):", // 5
    "    c.delete(2)", // 6
    "",
  ].join("\n"),
  "tests/test_quota.py": [
    "from pkg import quota", // 1
    "", // 2
    "", // 3
    "def test_check():", // 4
    "    orig = quota.check", // 5
    "    quota.check(1)", // 6
    "",
  ].join("\n"),
};

Deno.test("refs in Python: each line its function, an exact line marked, a test's read told from its calls", async () => {
  await withExecutor(PY, async (ex) => {
    // Two raises in one function: the second names it too.
    const raised = text(await callTool(ex, "find_references", { symbol_name: "TooMany" }));
    assert.match(
      raised,
      /^TooMany \(class pkg\/quota\.py:1-2\): 2 references in 1 file; lines are calls unless marked$/m,
    );
    assert.match(raised, /^ {2}7 check: raise TooMany\(\)$/m);
    assert.match(raised, /^ {2}9 check: raise TooMany\(\)$/m);

    // Among name-only lines, the exact self-call is marked exact.
    const p = await callTool(ex, "find_references", { symbol_name: "Client.delete" });
    has(referenceLines(p), "pkg/client.py:7 call exact", "pkg/other.py:2 call name");
    const deleted = text(p);
    assert.match(
      deleted,
      /: 3 references in 2 files; exact 1, by name only 2; lines are calls, by name only unless marked$/m,
    );
    assert.match(deleted, /^ {2}7 Client\.delete_all, exact: self\.delete\(x\)$/m);

    // A test file's read of the function is said as a read; its call is a bare line.
    const checked = text(await callTool(ex, "find_references", { symbol_name: "check" }));
    assert.match(
      checked,
      /^check \(function pkg\/quota\.py:5-9\): 2 references in 1 file; lines are calls unless marked$/m,
    );
    // Few lines in a test file: each its code, as a code file's (bare `6; read 5` was read again).
    assert.match(checked, /^tests\/test_quota\.py \(test\)\n {2}5 read in test_check: /m);
    assert.match(checked, /^ {2}6 test_check: quota\.check\(1\)$/m);
  });
});

Deno.test("refs: a function used nowhere has no references (its definition is the header)", async () => {
  await withExecutor({ "m.py": "def alpha():\n    return 1\n" }, async (ex) => {
    const t = text(await callTool(ex, "find_references", { symbol_name: "alpha" }));
    // The text check found the definition alone: said in the same line.
    assert.equal(
      t,
      "alpha (function m.py:1-2): no references; no other line of code holds the name",
    );
  });
});

Deno.test("refs: a line holding a call and a read of the name is listed once", async () => {
  const files = {
    "kit.js": [
      "class Kit {", // 1
      "  fail(request, how) {", // 2
      "    return how;", // 3
      "  }", // 4
      "}", // 5
      "", // 6
      "function run(kit, pre, request) {", // 7
      "  return kit.fail(request, pre.fail);", // 8
      "}", // 9
      "module.exports = { Kit, run };",
      "",
    ].join("\n"),
  };
  await withExecutor(files, async (ex) => {
    const t = text(await callTool(ex, "find_references", { symbol_name: "Kit.fail" }));
    // Before: `8 run, by name only: …` and `8 read, by name only in run: …`, the same code twice.
    const eight = t.split("\n").filter((l) => /^ {2}8\b/.test(l));
    assert.equal(eight.length, 1, t);
    assert.match(eight[0], /\(also read\): return kit\.fail\(request, pre\.fail\);$/);
  });
});

Deno.test("refs in JavaScript: a name in module.exports = { … } is the export list, not a read", async () => {
  await withExecutor({
    "lib/common.js":
      "function dataEqual(a, b) {\n  return a === b;\n}\n\nmodule.exports = {\n  dataEqual,\n};\n",
    "lib/use.js":
      'const common = require("./common");\n\nfunction m(q) {\n  return common.dataEqual(q, 2);\n}\n',
  }, async (ex) => {
    const p = await callTool(ex, "find_references", { symbol_name: "dataEqual" });
    has(referenceLines(p), "lib/common.js:6 export_list exact", "lib/use.js:4 call exact");
    const t = text(p);
    assert.match(t, /^ {2}6 export_list$/m);
    assert.doesNotMatch(t, /read/);
  });
});
