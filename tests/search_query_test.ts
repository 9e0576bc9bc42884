/**
 * The question is read once (issue 30, item 0): `analyseQuery` makes the one value every stage
 * of a ranked search reads, and it crosses to a search worker as plain data.
 */

import assert from "node:assert/strict";
import { analyseQuery } from "../src/search/query.ts";
import { queryTokens } from "../src/util/tokens.ts";

Deno.test("query: analysed once into tokens, their set and the exact forms", () => {
  const q = analyseQuery("Writes an array of 32-bit integers to .fdignore");
  assert.deepEqual(q.text, "Writes an array of 32-bit integers to .fdignore");
  assert.deepEqual(q.tokens, queryTokens(q.text));
  assert.deepEqual([...q.terms].sort(), [...new Set(q.tokens)].sort());
  assert(q.forms.numbers.has("32"), "the number the question writes apart");
  assert.deepEqual(q.forms.first, "write");
  assert(q.forms.code.some((forms) => forms.includes("fdignore")), "a dot file is a code word");
});

Deno.test("query: the analysed value survives a copy to a worker unchanged", () => {
  const q = analyseQuery(`parse "github.com/acme/render" uint16 values`);
  const copy = structuredClone(q);
  assert.deepEqual(copy, q);
  assert(copy.terms instanceof Set && copy.forms.exact instanceof Set);
});
