/**
 * A script without an extension whose `#!` line names an interpreter is read in that language
 * (issue 35, terser: `bin/terser` — `#!/usr/bin/env node` — was plain text, so `codectx deps`
 * missed its `require("commander")` and an answerer searched `require(` twice more).
 */

import assert from "node:assert/strict";
import { languageForShebang } from "../src/parse/languages.ts";
import { cleanup, makeProject, runCli, tempIndexDir } from "./helpers.ts";

Deno.test("languageForShebang: the interpreter a #! line names, through env or a path, a version dropped", () => {
  const id = (line: string) => languageForShebang(`${line}\nrest\n`)?.id;
  assert.equal(id("#!/usr/bin/env node"), "javascript");
  assert.equal(id("#!/usr/bin/env -S node --no-warnings"), "javascript");
  assert.equal(id("#! /usr/local/bin/node"), "javascript");
  assert.equal(id("#!/usr/bin/python3.11 -u"), "python");
  assert.equal(id("#!/usr/bin/env python"), "python");
  assert.equal(id("#!/usr/bin/env ruby"), "ruby");
  // A shell script stays text (its grammar runs in its own processes, chosen by extension).
  assert.equal(id("#!/bin/sh"), undefined);
  assert.equal(id("#!/usr/bin/env bash"), undefined);
  assert.equal(id("no shebang"), undefined);
});

Deno.test("a #! script without an extension is parsed in its language: its imports and calls count", async () => {
  const root = await makeProject({
    "bin/tool": [
      "#!/usr/bin/env node",
      '"use strict";',
      'const { program } = require("commander");',
      'const lib = require("../lib/lib.js");',
      "program.parse(process.argv);",
      "lib.run(process.argv);",
      "",
    ].join("\n"),
    "lib/lib.js": "function run(a) {\n  return a;\n}\nmodule.exports = { run };\n",
    "bin/setup": "#!/usr/bin/env python3\nimport sys\n\n\ndef go():\n    return sys.argv\n",
    "bin/hello": "#!/bin/sh\necho hello\n",
  });
  const indexDir = await tempIndexDir();
  const cli = (...args: string[]) => runCli([...args, "--path", root, "--index-dir", indexDir]);
  try {
    const index = await cli("index");
    assert.equal(index.code, 0, index.stderr);
    assert.match(index.stdout, /javascript 2, text 1, python 1/);
    const deps = await cli("deps", "--package", "commander");
    assert.equal(deps.code, 0, deps.stderr);
    assert.match(deps.stdout, /^ {2}bin\/tool:3 /m);
    const refs = await cli("refs", "run");
    assert.match(refs.stdout, /^bin\/tool\n {2}6: lib\.run\(process\.argv\);$/m);
    const py = await cli("summary", "bin/setup");
    assert.match(py.stdout, /^# bin\/setup — python, 6 lines/);
  } finally {
    await cleanup(root, indexDir);
  }
});
