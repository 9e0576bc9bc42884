/**
 * The old side of a changed file is parsed where the hunks are (`other_side.ts`): from the
 * top-level definition before a hunk to the one after it, the rest moved from the indexed new
 * side — the same definitions as the whole old file's, with less text parsed; and the whole
 * file when a window does not parse alone.
 */

import assert from "node:assert/strict";
import { parseSource } from "../../parse/parser.ts";
import { otherSide, parseDiff } from "./diff.ts";
import { oldDefinitions } from "./other_side.ts";

/** The old side's definitions, windowed and whole, and the texts the windowed one parsed. */
async function both(path: string, oldText: string, newText: string, diff: string) {
  const [patch] = parseDiff(diff);
  const now = newText.split("\n");
  const old = otherSide(patch, now, "new");
  assert.equal(old.join("\n"), oldText);
  const indexed = (await parseSource(path, newText, undefined, { references: false })).symbols;
  const parsed: string[] = [];
  const windowed = await oldDefinitions(
    patch.hunks,
    indexed,
    now,
    old,
    path,
    (text, language) => {
      parsed.push(text);
      return parseSource(path, text, language, { references: false });
    },
  );
  const whole = await parseSource(path, oldText, undefined, { references: false });
  return { windowed: windowed.symbols, whole: whole.symbols, parsed: parsed.join("\n") };
}

const fn = (name: string, body: string) => `export function ${name}(a: number) {\n  ${body}\n}`;

Deno.test("the old side is parsed from the definition before a hunk to the one after it", async () => {
  const old = [
    'import { x } from "./x";',
    fn("first", "return a;"),
    fn("second", "return a + 1;"),
    fn("gone", "return 2;"),
    "export class Keeper {\n  keep(): number {\n    return 1;\n  }\n}",
    fn("last", "return a * 2;"),
    "",
  ].join("\n");
  const now = [
    'import { x } from "./x";',
    fn("first", "return a;"),
    fn("second", "return a + 2;"),
    "export class Keeper {\n  keep(): number {\n    return 1;\n  }\n}",
    fn("last", "return a * 2;"),
    "",
  ].join("\n");
  const diff = [
    "--- a/m.ts",
    "+++ b/m.ts",
    "@@ -6 +6 @@",
    "-  return a + 1;",
    "+  return a + 2;",
    "@@ -8,3 +7,0 @@",
    "-export function gone(a: number) {",
    "-  return 2;",
    "-}",
    "",
  ].join("\n");
  const { windowed, whole, parsed } = await both("m.ts", old, now, diff);
  assert.deepEqual(windowed, whole);
  assert.deepEqual(whole.map((s) => s.qualifiedName), [
    "first",
    "second",
    "gone",
    "Keeper",
    "Keeper.keep",
    "last",
  ]);
  // second and gone are parsed (the window runs to Keeper); first, Keeper and last are not.
  assert.match(parsed, /return a \+ 1;/);
  assert.match(parsed, /function gone/);
  assert.doesNotMatch(parsed, /function first|class Keeper|function last|import/);
});

Deno.test("a window that does not parse alone: the whole old side is parsed", async () => {
  // The functions inside `if` have no parent and start their lines: from second to last, the
  // text alone closes a brace it never opened.
  const old = [
    "if (globalThis.window) {",
    "function first(a: number) {",
    "  return a;",
    "}",
    "function second(a: number) {",
    "  return a + 1;",
    "}",
    "}",
    "function last(a: number) {",
    "  return a;",
    "}",
    "",
  ].join("\n");
  const now = old.replace("return a + 1", "return a + 2");
  const diff = "--- a/w.ts\n+++ b/w.ts\n@@ -6 +6 @@\n-  return a + 1;\n+  return a + 2;\n";
  const { windowed, whole, parsed } = await both("w.ts", old, now, diff);
  assert.deepEqual(windowed, whole);
  assert.deepEqual(whole.map((s) => s.qualifiedName), ["first", "second", "last"]);
  assert.ok(parsed.endsWith(old), "the whole file was parsed");
});

Deno.test("a window runs to a definition that starts its line (Python's in `if` do not)", async () => {
  const old = [
    "import os",
    "",
    "if os.name == 'nt':",
    "    def first(a):",
    "        return a",
    "",
    "    def second(a):",
    "        return a + 1",
    "",
    "def last(a):",
    "    return a",
    "",
  ].join("\n");
  const now = old.replace("return a + 1", "return a + 2");
  const diff =
    "--- a/p.py\n+++ b/p.py\n@@ -8 +8 @@\n-        return a + 1\n+        return a + 2\n";
  const { windowed, whole, parsed } = await both("p.py", old, now, diff);
  assert.deepEqual(windowed, whole);
  assert.deepEqual(whole.map((s) => s.qualifiedName), ["first", "second", "last"]);
  assert.match(parsed, /^import os\n\nif os.name/);
  assert.doesNotMatch(parsed, /def last/);
});
