/** `Lru`: the cache the search keeps query and member vectors in. */

import assert from "node:assert/strict";
import { Lru } from "../src/util/lru.ts";

Deno.test("Lru: keeps the most recently used within its entries and its keys' weight", () => {
  const c = new Lru<string, number>(2);
  c.set("a", 1);
  c.set("b", 2);
  assert.equal(c.get("a"), 1); // "a" is now the most recently used
  c.set("c", 3);
  assert.deepEqual([...c.keys()], ["a", "c"]);
  assert.equal(c.get("b"), undefined);
  // Setting a kept key again replaces it and counts it once.
  c.set("c", 4);
  assert.equal(c.size, 2);
  assert.equal(c.get("c"), 4);
  // By weight: keys of 3 characters, at most 7 in all, hold two.
  const w = new Lru<string, number>(100, 7);
  for (const k of ["one", "two", "six"]) w.set(k, k.length);
  assert.deepEqual([...w.keys()], ["two", "six"]);
  // One key heavier than the bound is still kept, alone.
  w.set("a-long-key", 1);
  assert.deepEqual([...w.keys()], ["a-long-key"]);
  w.clear();
  assert.equal(w.size, 0);
  w.set("one", 1);
  w.set("two", 2);
  assert.equal(w.size, 2);
});
