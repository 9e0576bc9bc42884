/**
 * The other side of a changed file is parsed with a query of the definition patterns only
 * (`parseSource(…, { references: false })`, `parse/grammars.ts` definitionPatterns): its
 * symbols are those of the whole query, in every language of the fixtures.
 */

import assert from "node:assert/strict";
import { definitionPatterns } from "../../parse/grammars.ts";
import { parseSource } from "../../parse/parser.ts";

const SOURCES: Record<string, string> = {
  "a.ts": [
    "export class Store<T> {",
    "  private items: T[] = [];",
    "  add(item: T): void { this.items.push(item); }",
    "}",
    "export const make = () => new Store<number>();",
    "export function use(s: Store<number>) { s.add(1); }",
    "module.exports = function (grunt: unknown) { function inner() {} inner(); };",
    "",
  ].join("\n"),
  "b.py": [
    "class Runner:",
    "    def run(self, x):",
    "        def helper():",
    "            return x",
    "        return helper()",
    "",
    "LIMIT = 3",
    "",
  ].join("\n"),
  "c.go": "package c\n\ntype T struct{}\n\nfunc (t *T) Do() {}\n\nfunc New() *T { return &T{} }\n",
  "d.rs": "pub struct S;\nimpl S {\n    pub fn new() -> S { S }\n}\nmacro_rules! m { () => {} }\n",
  "e.js": "const o = { f() {}, g: function () {} };\nexports.h = function h() {};\n",
};

Deno.test("definitions-only parse: the same symbols as the whole query", async () => {
  const alone = [];
  for (const [path, text] of Object.entries(SOURCES)) {
    alone.push((await parseSource(path, text, undefined, { references: false })).symbols);
  }
  const whole = [];
  for (const [path, text] of Object.entries(SOURCES)) {
    whole.push((await parseSource(path, text)).symbols);
  }
  assert.ok(whole.every((s) => s.length > 0));
  assert.deepEqual(alone, whole);
});

Deno.test("definitionPatterns keeps whole patterns with a definition capture, in order", () => {
  const text = [
    "; a comment (with a paren",
    "(function_declaration name: (identifier) @name) @definition.function",
    "(call_expression function: (identifier) @reference.call)",
    "[",
    "  (class_declaration)",
    '  (string "(")',
    "]",
    "  @scope",
    "(x) @local.definition",
    '((identifier) @local (#eq? @local "a)b"))',
  ].join("\n");
  assert.equal(
    definitionPatterns(text),
    [
      "(function_declaration name: (identifier) @name) @definition.function",
      '[\n  (class_declaration)\n  (string "(")\n]\n  @scope',
      '((identifier) @local (#eq? @local "a)b"))',
    ].join("\n"),
  );
});
