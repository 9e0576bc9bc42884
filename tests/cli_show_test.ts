/**
 * `codectx show FILE:A-B` and `codectx summary FILE` (issue 35, fourth blind run): the help said
 * to read a range with `sed -n A,Bp FILE`, which numbers nothing — answerers counted offsets by
 * hand and one answer was a line off; `summary scrapy/cmdline.py` was "Unexpected argument".
 */

import assert from "node:assert/strict";
import { cleanup, makeProject, runCli, tempIndexDir } from "./helpers.ts";

/** A file of `n` lines, line i saying `line i`. */
const numbered = (n: number) =>
  Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

const FILES = {
  "pkg/short.py": "def a():\n\n    return 1\n",
  "pkg/long.py": numbered(450),
  "pkg/use.py": "from pkg.short import a\n\n\ndef b():\n    return a()\n",
};

Deno.test("codectx show: FILE:A-B, FILE:N and FILE, numbered; capped, refused past the cap or the root", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  const show = (spec: string) => runCli(["show", spec, "--path", root, "--index-dir", indexDir]);
  try {
    const range = await show("pkg/long.py:120-122");
    assert.equal(range.code, 0, range.stderr);
    assert.equal(range.stdout, "120: line 120\n121: line 121\n122: line 122\n");
    // A few lines around N; an empty line is its number alone.
    assert.equal((await show("pkg/long.py:3")).stdout.split("\n")[0], "1: line 1");
    assert.equal((await show("pkg/long.py:100")).stdout.trim().split("\n").length, 11);
    assert.equal((await show("pkg/short.py")).stdout, "1: def a():\n2:\n3:     return 1\n");
    // At most 200 lines a call, then how to see the rest.
    const capped = (await show("pkg/long.py:1-450")).stdout.trim().split("\n");
    assert.equal(capped.length, 201);
    assert.equal(capped[199], "200: line 200");
    assert.equal(
      capped[200],
      "(lines 201-450 not shown, 200 a call: codectx show pkg/long.py:201-400)",
    );
    // A range past the end is cut at it; one beyond it is refused with the file's length.
    assert.equal((await show("pkg/long.py:449-460")).stdout, "449: line 449\n450: line 450\n");
    const beyond = await show("pkg/long.py:500-510");
    assert.equal(beyond.code, 2);
    assert.match(beyond.stderr, /^codectx: pkg\/long\.py has 450 lines; ask within 1-450/);
    // A whole file past the cap is refused, saying what to ask instead.
    const whole = await show("pkg/long.py");
    assert.equal(whole.code, 2);
    assert.match(
      whole.stderr,
      /^codectx: pkg\/long\.py has 450 lines, more than 200 shown at once: ask for a range \(codectx show pkg\/long\.py:1-200\), or its outline \(codectx explain pkg\/long\.py\)/,
    );
    for (const outside of ["../x.py:1", "/etc/passwd:1-3"]) {
      const r = await show(outside);
      assert.equal(r.code, 2, outside);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /is outside the project root/, outside);
    }
    // Several ranges a call, each under its file's name (an answerer asked for two and was
    // refused: "unexpected argument").
    const two = await runCli([
      "show",
      "pkg/long.py:7-8",
      "pkg/short.py:1",
      "--path",
      root,
      "--index-dir",
      indexDir,
    ]);
    assert.equal(two.code, 0, two.stderr);
    assert.equal(
      two.stdout,
      "pkg/long.py:\n7: line 7\n8: line 8\npkg/short.py:\n1: def a():\n2:\n3:     return 1\n",
    );
    const backwards = await show("pkg/long.py:20-10");
    assert.equal(backwards.code, 2);
    assert.match(backwards.stderr, /A-B with A ≤ B/);
  } finally {
    await cleanup(root, indexDir);
  }
});

Deno.test("codectx show: a file written after the index is read, as it is now", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  try {
    const first = await runCli(["show", "pkg/short.py:1", "--path", root, "--index-dir", indexDir]);
    assert.equal(first.code, 0, first.stderr);
    await Deno.writeTextFile(`${root}/pkg/new.py`, "x = 1\ny = 2\n");
    await Deno.writeTextFile(`${root}/pkg/short.py`, "def a2():\n    return 2\n");
    for (
      const [spec, want] of [["pkg/new.py:2-2", "2: y = 2\n"], [
        "pkg/short.py:1-1",
        "1: def a2():\n",
      ]]
    ) {
      const r = await runCli(["show", spec, "--path", root, "--index-dir", indexDir]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, want);
    }
  } finally {
    await cleanup(root, indexDir);
  }
});

Deno.test("codectx summary FILE: the file's outline, as explain FILE; a folder is an error naming what answers", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  const cli = (...args: string[]) => runCli([...args, "--path", root, "--index-dir", indexDir]);
  try {
    const file = await cli("summary", "pkg/short.py");
    assert.equal(file.code, 0, file.stderr);
    assert.match(file.stdout, /^# pkg\/short\.py — python, 3 lines\n[^]*- 1: def a\(\):/);
    assert.match(file.stdout, /^- pkg\/: use$/m); // its importer
    const json = JSON.parse((await cli("summary", "pkg/short.py", "--json")).stdout);
    assert.equal(json.file, "pkg/short.py");
    const folder = await cli("summary", "pkg/");
    assert.equal(folder.code, 2);
    assert.match(
      folder.stderr,
      /^codectx: summary outlines the whole project or one file, not a folder: a file's outline is codectx summary pkg\/FILE; code under the folder, codectx search "QUERY" --path-prefix pkg/,
    );
    // Without a path, or with the root's, the repository at a glance as before.
    for (const args of [["summary"], ["summary", "."]]) {
      const r = await cli(...args);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^# codectx-proj-[^\n]*\n\n3 files/, args.join(" "));
    }
  } finally {
    await cleanup(root, indexDir);
  }
});
