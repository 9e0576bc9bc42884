/**
 * The assistant bench's judge (bench/assistant/keys.ts): a `path:line` item counts only as that
 * line of that path (a folder before it allowed), a name only as a word, `a|b` either; a
 * wrong item makes a full answer partly right.
 */

import assert from "node:assert/strict";
import {
  answerSections,
  expandLineLists,
  judge,
  names,
  type Question,
} from "../bench/assistant/keys.ts";

Deno.test("assistant bench: items match as paths, lines and words", () => {
  assert.ok(names("see `django/conf/__init__.py:90`", "django/conf/__init__.py:90"));
  assert.ok(names("at proj/django/conf/__init__.py:90.", "django/conf/__init__.py:90"));
  assert.ok(!names("django/conf/__init__.py:901", "django/conf/__init__.py:90"));
  assert.ok(!names("xdjango/conf/__init__.py:90", "django/conf/__init__.py:90"));
  assert.ok(names("in django/template/defaultfilters.py", "django/template/defaultfilters.py"));
  assert.ok(!names("django/template/defaultfilters.pyc", "django/template/defaultfilters.py"));
  assert.ok(names("calls get_host()", "get_host"));
  // A line list after one path names each line of that path.
  const listed = expandLineLists("- a/b.py:105, :188, :196\n- c.py:4, 9\n- d.py:1, e.py:2");
  for (const item of ["a/b.py:105", "a/b.py:188", "a/b.py:196", "c.py:4", "c.py:9", "e.py:2"]) {
    assert.ok(names(listed, item), item);
  }
  assert.ok(!names(listed, "a/b.py:18"));
  // A note after a line does not end the list, and its own numbers are not lines.
  const noted = expandLineLists("- src/core/x.ts:73 (recursive, 2 calls), 94 (from y), :120");
  for (const item of ["src/core/x.ts:73", "src/core/x.ts:94", "src/core/x.ts:120"]) {
    assert.ok(names(noted, item), item);
  }
  assert.ok(!names(noted, "src/core/x.ts:2"));
  // A list that ends a sentence.
  assert.ok(names(expandLineLists("In app/builtins.py:89, 95."), "app/builtins.py:95"));
  // A path that ends a line, then list items of its line numbers (an answer written as codectx's
  // refs prints them: the file once, its lines under it).
  const grouped = expandLineLists(
    "All calls are in mux.go:\n- 108 (Handle)\n- 114, 124\n\nsrc/de.rs:\n1. 257\nThen 5 more.",
  );
  for (const item of ["mux.go:108", "mux.go:114", "mux.go:124", "src/de.rs:257"]) {
    assert.ok(names(grouped, item), item);
  }
  assert.ok(!names(grouped, "mux.go:5") && !names(grouped, "src/de.rs:5"));
  assert.ok(!names("calls _get_raw_host()", "get_host"));
  assert.ok(names("a.py:4", "b.py:1|a.py:4"));
});

Deno.test("assistant bench: right, partly, wrong", () => {
  const q: Question = {
    id: "q1",
    kind: "who_calls",
    question: "?",
    all: ["a.py:1", "a.py:2", "b.py:3", "b.py:4"],
    none: ["c.py:9"],
    oracle: "test",
  };
  const sections = answerSections("## q1\na.py:1 a.py:2 b.py:3 b.py:4\n## q2:\nb.py:3 c.py:9\n");
  assert.equal(judge(q, sections.get("q1")!).verdict, "right");
  assert.equal(judge(q, "a.py:1 a.py:2 b.py:3 b.py:4 c.py:9").verdict, "partly");
  assert.equal(judge(q, "a.py:1 a.py:2").verdict, "partly");
  assert.deepEqual(judge(q, sections.get("q2")!), {
    verdict: "wrong",
    missing: ["a.py:1", "a.py:2", "b.py:4"],
    wrongItems: ["c.py:9"],
  });
});
