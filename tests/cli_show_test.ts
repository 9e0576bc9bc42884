/**
 * `codectx show FILE:A-B` and `codectx summary FILE` (issue 35, fourth blind run): the help said
 * to read a range with `sed -n A,Bp FILE`, which numbers nothing — answerers counted offsets by
 * hand and one answer was a line off; `summary scrapy/cmdline.py` was "Unexpected argument".
 */

import assert from "node:assert/strict";
import { renderText } from "../src/mcp/render.ts";
import { callTool, cleanup, makeProject, runCli, tempIndexDir, withExecutor } from "./helpers.ts";

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
      "pkg/long.py:\n7: line 7\n8: line 8\npkg/short.py:\nin a (1-3)\n1: def a():\n2:\n3:     return 1\n",
    );
    const backwards = await show("pkg/long.py:20-10");
    assert.equal(backwards.code, 2);
    assert.match(backwards.stderr, /A-B with A ≤ B/);
  } finally {
    await cleanup(root, indexDir);
  }
});

/** Functions whose lines sit under conditions, in four languages. */
const NESTED = {
  "src/done.c": [
    "#include <stdio.h>",
    "",
    "int http_done(int premature, int retry,",
    "              long bytes)",
    "{",
    "  int result = 0;",
    '  puts("start");',
    "  if(!premature &&",
    "     !retry &&",
    "     bytes <= 0) {",
    '    puts("counted");',
    '    puts("nothing");',
    '    puts("more");',
    '    puts("still");',
    '    fprintf(stderr, "Empty reply from server");',
    "    return 52;",
    "  }",
    "  return result;",
    "}",
    "",
  ].join("\n"),
  "app/check.py": [
    "class Checker:",
    "    def check(self, args, allowed):",
    "        seen = set()",
    "        for a in args:",
    "            if a in seen:",
    "                continue",
    "            seen.add(a)",
    "            if a in allowed:",
    "                print('ok', a)",
    "            elif a.startswith('_'):",
    "                print('private', a)",
    "            else:",
    "                raise ValueError(f'Invalid signature: {a}')",
    "        return seen",
    "",
  ].join("\n"),
  "srv/serve.go": [
    "package srv",
    "",
    'import "errors"',
    "",
    "func Serve(n int, ok bool) error {",
    "\tfor i := 0; i < n; i++ {",
    "\t\tswitch {",
    "\t\tcase i == 3 && ok:",
    '\t\t\treturn errors.New("three")',
    "\t\tdefault:",
    "\t\t\tcontinue",
    "\t\t}",
    "\t}",
    "\treturn nil",
    "}",
    "",
  ].join("\n"),
  "web/route.js": [
    "export function route(req, res) {",
    "  const a = 1;",
    "  const b = 2;",
    "  const c = 3;",
    "  const d = 4;",
    "  if (req.method === 'GET') {",
    "    res.end('get');",
    "  } else if (req.headers['x-denied']) {",
    "    const e = 5;",
    "    const f = 6;",
    "    const g = 7;",
    "    const h = 8;",
    "    throw new Error('Forbidden route');",
    "  }",
    "  return a + b + c + d;",
    "}",
    "",
  ].join("\n"),
};

Deno.test("codectx show FILE:N: the line in its function, under its heads (whole conditions, the if of an else), gaps marked", async () => {
  const root = await makeProject(NESTED);
  const indexDir = await tempIndexDir();
  const show = (spec: string) => runCli(["show", spec, "--path", root, "--index-dir", indexDir]);
  try {
    const c = await show("src/done.c:15");
    assert.equal(c.code, 0, c.stderr);
    // The definition's line, the whole three-line condition, the lines around N; gaps marked.
    assert.equal(
      c.stdout,
      [
        "in http_done (3-19)",
        "3: int http_done(int premature, int retry,",
        "…",
        "8:   if(!premature &&",
        "9:      !retry &&",
        "10:      bytes <= 0) {",
        "…",
        '12:     puts("nothing");',
        '13:     puts("more");',
        '14:     puts("still");',
        '15:     fprintf(stderr, "Empty reply from server");',
        "16:     return 52;",
        "17:   }",
        "18:   return result;",
        "",
      ].join("\n"),
    );
    // Python: a method in a class, under its loop and the `if` its `else` continues.
    const py = (await show("app/check.py:13")).stdout;
    assert.ok(
      py.startsWith(
        "in Checker.check (2-14)\n2:     def check(self, args, allowed):\n…\n" +
          "4:         for a in args:\n…\n8:             if a in allowed:\n",
      ),
      py,
    );
    assert.ok(py.includes("\n12:             else:\n13:                 raise ValueError"), py);
    assert.doesNotMatch(py, /^5: /m); // an `if` N is not under
    // Go: the loop, the switch and the case above the return.
    const go = (await show("srv/serve.go:9")).stdout;
    for (const l of [5, 6, 7, 8, 9]) assert.match(go, new RegExp(`^${l}: `, "m"), `line ${l}`);
    // JavaScript: the `if` an `else if` continues, both shown above the throw.
    const js = (await show("web/route.js:13")).stdout;
    assert.ok(
      js.startsWith(
        "in route (1-16)\n1: export function route(req, res) {\n…\n" +
          "6:   if (req.method === 'GET') {\n…\n8:   } else if",
      ),
      js,
    );
    assert.ok(js.includes("\n13:     throw new Error('Forbidden route');\n"), js);
    // A line no definition holds: the lines around it, as before.
    assert.equal((await show("src/done.c:1")).stdout.split("\n")[0], "1: #include <stdio.h>");
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

Deno.test("explain_file with line: the line in its function, as codectx show FILE:N prints it; a line past the end is refused", async () => {
  await withExecutor(NESTED, async (ex) => {
    const p = await callTool(ex, "explain_file", { file_path: "src/done.c", line: 15 });
    const text = renderText("explain_file", p);
    assert.ok(
      text.startsWith(
        "# src/done.c — c, 19 lines\nin http_done (3-19)\n3: int http_done(int premature, int retry,\n…\n8:   if(!premature &&\n",
      ),
      text,
    );
    assert.match(text, /^15: {5}fprintf\(stderr, "Empty reply from server"\);$/m);
    assert.doesNotMatch(text, /Symbols|Imports/);
    // Outside a definition: the lines around it.
    const top = await callTool(ex, "explain_file", { file_path: "src/done.c", line: 1 });
    assert.deepEqual((top.line_context as string[]).slice(0, 2), ["1: #include <stdio.h>", "2:"]);
    const past = await ex.execute({
      tool_name: "explain_file",
      arguments: { file_path: "src/done.c", line: 99 },
    }, { source: "test" });
    assert.equal(past.success, false);
    assert.match(past.error ?? "", /^line: src\/done\.c has 19 lines; pass a line from 1 to 19/);
  });
});
