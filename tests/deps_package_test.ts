/**
 * Importers of a package or module (issue 35): "which files import package P" had no answer —
 * `codectx deps` gave per-package counts and `--json` no files, so an assistant ran `deps FILE`
 * file by file. `get_dependencies` with `package` (`codectx deps --package P`,
 * `GET /api/deps?package=P`) lists every file and line that imports it or a submodule of it.
 */

import assert from "node:assert/strict";
import { renderText } from "../src/mcp/render.ts";
import { callTool, cleanup, makeProject, runCli, tempIndexDir, withExecutor } from "./helpers.ts";
import { connectMcp, http, startIndexed } from "./surfaces_helpers.ts";

const FILES = {
  "a.py": "import os\nimport os.path\nfrom collections import OrderedDict\nimport requests\n",
  "b.py": "import json\n\n\nfrom requests.adapters import HTTPAdapter\nfrom pkg import sub as s\n",
  "pkg/__init__.py": "",
  "pkg/sub.py": "from pkg import helper\n\n\ndef helper():\n    pass\n",
  "web/x.ts": 'import { z } from "zod/v4";\nimport { b } from "./y.ts";\n',
  "web/y.ts": 'import { z } from "zod";\nexport const b = z;\n',
  "main.go":
    'package main\n\nimport (\n\t"fmt"\n\t"github.com/spf13/cast/internal"\n)\n\nfunc main() { fmt.Println(internal.X) }\n',
};

type Importer = { file: string; line: number; module: string; names: string[] };
const lines = (p: Record<string, unknown>) =>
  (p.importers as Importer[]).map((i) => `${i.file}:${i.line} ${i.module}`);

Deno.test("get_dependencies package: every file and line importing it, in JSON and MCP text", async () => {
  await withExecutor(FILES, async (ex) => {
    const requests = await callTool(ex, "get_dependencies", { package: "requests" });
    assert.deepEqual(lines(requests), ["a.py:4 requests", "b.py:4 requests.adapters"]);
    assert.deepEqual(requests.imported_by, ["a.py", "b.py"]);
    assert.deepEqual((requests.importers as Importer[])[1].names, ["HTTPAdapter"]);
    assert.deepEqual(lines(await callTool(ex, "get_dependencies", { package: "os.path" })), [
      "a.py:2 os.path",
    ]);
    assert.deepEqual(lines(await callTool(ex, "get_dependencies", { package: "zod" })), [
      "web/x.ts:1 zod/v4",
      "web/y.ts:1 zod",
    ]);
    assert.deepEqual(
      lines(await callTool(ex, "get_dependencies", { package: "github.com/spf13/cast" })),
      ["main.go:5 github.com/spf13/cast/internal"],
    );
    // A project module, as written or by its path; a submodule imported from its package.
    assert.deepEqual(lines(await callTool(ex, "get_dependencies", { package: "pkg" })), [
      "b.py:5 pkg",
      "pkg/sub.py:1 pkg",
    ]);
    assert.deepEqual(lines(await callTool(ex, "get_dependencies", { package: "pkg.sub" })), [
      "b.py:5 pkg",
    ]);
    // A project file by its path, with or without its extension.
    for (const path of ["web/y", "web/y.ts"]) {
      assert.deepEqual(lines(await callTool(ex, "get_dependencies", { package: path })), [
        "web/x.ts:2 ./y.ts",
      ]);
    }
    const text = renderText("get_dependencies", requests);
    // The MCP text and `codectx deps --package` are one text.
    assert.equal(
      text,
      "imported by 2 files (2 imports); no test files among them\n  a.py:4\n  b.py:4 requests.adapters [HTTPAdapter]",
    );

    const none = await ex.execute({
      tool_name: "get_dependencies",
      arguments: { package: "reqests" },
    });
    assert.equal(none.success, false);
    assert.match(String(none.error), /no file imports 'reqests'; did you mean requests/);
    const both = await ex.execute({
      tool_name: "get_dependencies",
      arguments: { package: "os", file_path: "a.py" },
    });
    assert.match(String(both.error), /^package: give package or file_path, not both/);
  });
});

Deno.test("codectx deps FILE: each importer as file:line and what it takes", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  try {
    const r = await runCli(["deps", "pkg/sub.py", "--path", root, "--index-dir", indexDir]);
    assert.equal(r.code, 0, r.stderr);
    // Before: `imported by 1 file` then `  b.py`; the line took another search (mobx).
    assert.match(
      r.stdout,
      /^imported by 1 file \(1 import\); no test files among them\n {2}b\.py:5 \[sub as s\]$/m,
    );
  } finally {
    await cleanup(root, indexDir);
  }
});

Deno.test("codectx deps --package P prints the importing lines", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  try {
    const r = await runCli(["deps", "--package", "os", "--path", root, "--index-dir", indexDir]);
    assert.equal(r.code, 0, r.stderr);
    // One line a file (it was a line an import, the module on each).
    assert.equal(
      r.stdout,
      "imported by 1 file (2 imports); no test files among them\n  a.py:1, 2 os.path\n",
    );
  } finally {
    await cleanup(root, indexDir);
  }
});

Deno.test("GET /api/deps?package=: importers with snake_case names; a bad package is a 400 naming it", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  const srv = await startIndexed(["web"], root, indexDir);
  try {
    const ok = await http(`${srv.url}/api/deps?package=zod`);
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.json.imported_by, ["web/x.ts", "web/y.ts"]);
    assert.deepEqual(Object.keys((ok.json.importers as Importer[])[0]).sort(), [
      "external",
      "file",
      "line",
      "module",
      "names",
      "resolved",
    ]);
    const both = await http(`${srv.url}/api/deps?package=zod&file=a.py`);
    assert.equal(both.status, 400, both.text);
    assert.match(String((both.json.error as { message: string }).message), /^package: /);
    const missing = await http(`${srv.url}/api/deps?package=nothing_like_it`);
    assert.equal(missing.status, 404, missing.text);
    const bridge = await startIndexed(["serve"], root, indexDir);
    try {
      const bad = await http(`${bridge.url}/tools/invoke`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ tool_name: "get_dependencies", arguments: { package: 7 } }),
      });
      assert.equal(bad.status, 400, bad.text);
      assert.match(bad.text, /package/);
    } finally {
      await bridge.stop();
    }
  } finally {
    await srv.stop();
    await cleanup(root, indexDir);
  }
});

Deno.test("get_dependencies package: a Go import path is one package — its subpackages' importers count only when nothing imports it", async () => {
  // Blind run on chi: 'deps --package github.com/go-chi/chi/v5' listed 32 files and 45 imports,
  // every importer of …/v5/middleware and its examples among them, to find 5 lines.
  const files = {
    "app/main.go":
      'package main\n\nimport (\n\t"github.com/go-chi/chi/v5"\n\t"github.com/go-chi/chi/v5/middleware"\n)\n\nfunc main() { chi.NewRouter().Use(middleware.Logger) }\n',
    "app/other.go":
      'package main\n\nimport "github.com/go-chi/chi/v5/middleware"\n\nvar _ = middleware.Logger\n',
  };
  await withExecutor(files, async (ex) => {
    assert.deepEqual(
      lines(await callTool(ex, "get_dependencies", { package: "github.com/go-chi/chi/v5" })),
      ["app/main.go:4 github.com/go-chi/chi/v5"],
    );
    assert.deepEqual(
      lines(await callTool(ex, "get_dependencies", { package: "github.com/go-chi/chi" })),
      [
        "app/main.go:4 github.com/go-chi/chi/v5",
        "app/main.go:5 github.com/go-chi/chi/v5/middleware",
        "app/other.go:3 github.com/go-chi/chi/v5/middleware",
      ],
    );
  });
});

Deno.test("get_dependencies package: a folder's importers nested under it, the module said once, tests counted", async () => {
  // chi's middleware files importing chi: `- middleware/x.go:5 github.com/go-chi/chi/v5` a
  // line each (2,609 characters in the MCP arm), the folder and the module repeated.
  const files: Record<string, string> = {};
  for (const n of ["a", "b", "c"]) {
    files[`mw/${n}.py`] = `import requests\n\n\ndef ${n}():\n    pass\n`;
  }
  files["top.py"] = "import os\nimport requests\n";
  files["test_top.py"] = "import requests\n";
  await withExecutor(files, async (ex) => {
    const p = await callTool(ex, "get_dependencies", { package: "requests" });
    // `mw/ a.py:1; b.py:1` was read as files at the top (gin: `binding/ default_validator.go:13`),
    // and whether tests import it took an answerer two more searches.
    assert.equal(
      renderText("get_dependencies", p),
      "imported by 5 files (5 imports); 1 test file among them\n  mw/\n    a.py:1\n    b.py:1\n    c.py:1\n" +
        "  test_top.py:1\n  top.py:2",
    );
  });
});

/** A header and a Node built-in each written both ways, with a Go alias and Python `as`. */
const BOTH_WAYS = {
  "c/a.c": "#include <openssl/ssl.h>\n#include <stdio.h>\nint a(void) { return 0; }\n",
  "c/b.c": '#include "openssl/ssl.h"\n#include "zlib.h"\nint b(void) { return 1; }\n',
  "c/c.cpp": "#include <zlib.h>\nint c() { return 2; }\n",
  "js/a.js": 'const fs = require("fs");\nconst m = import("chalk");\nmodule.exports = { fs, m };\n',
  "js/b.mjs":
    'import fs from "node:fs";\nimport { join } from "node:path";\nexport const x = [fs, join];\n',
  "js/c.ts": 'import type { Options } from "chalk";\nconst o: Options = {};\nexport const y = o;\n',
  "js/d.ts":
    'import fsx = require("fs-extra");\nimport u = require("./util");\nexport const d = [fsx, u];\n',
  "js/util.ts": "export const one = 1;\n",
  "go/main.go":
    'package main\n\nimport (\n\tyaml "gopkg.in/yaml.v3"\n\t_ "github.com/lib/pq"\n)\n\nvar _ = yaml.Marshal\n',
  "py/a.py": "import os.path as osp\nfrom os import path\n",
};

Deno.test("codectx deps --package: a C header's importers in both include forms, named with or without .h", async () => {
  // Fourth blind run: `deps --package openssl/ssl.h` listed the one `#include "openssl/ssl.h"`
  // and missed four `#include <openssl/ssl.h>` files, without a word; on git it found none
  // (`no file imports 'openssl/ssl.h'; did you mean , openssl?`).
  const root = await makeProject(BOTH_WAYS);
  const indexDir = await tempIndexDir();
  try {
    for (const p of ["openssl/ssl.h", "<openssl/ssl.h>", "openssl/ssl"]) {
      const r = await runCli(["deps", "--package", p, "--path", root, "--index-dir", indexDir]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(
        r.stdout,
        "imported by 2 files (2 imports); no test files among them\n  c/\n    a.c:1\n    b.c:1 openssl/ssl.h\n",
        p,
      );
    }
    const zlib = await runCli([
      "deps",
      "--package",
      "zlib",
      "--path",
      root,
      "--index-dir",
      indexDir,
    ]);
    assert.match(zlib.stdout, /^imported by 2 files \(2 imports\)/, zlib.stderr);
  } finally {
    await cleanup(root, indexDir);
  }
});

Deno.test("get_dependencies package over MCP: `node:fs` and `fs` are one module; TS `import x = require()` counts, as do require, import(), import type, Go aliases and Python `as`", async () => {
  const root = await makeProject(BOTH_WAYS);
  const indexDir = await tempIndexDir();
  const { client } = await connectMcp(root, indexDir);
  try {
    const importers = async (name: string) => {
      const r = await client.callTool({ name: "get_dependencies", arguments: { package: name } });
      assert.notEqual(r.isError, true, JSON.stringify(r.content));
      return lines(r.structuredContent as Record<string, unknown>);
    };
    // Before: `fs` missed b.mjs, `node:fs` missed a.js, `path` was "no file imports 'path'".
    for (const name of ["fs", "node:fs"]) {
      assert.deepEqual(await importers(name), ["js/a.js:1 fs", "js/b.mjs:1 node:fs"], name);
    }
    assert.deepEqual(await importers("path"), ["js/b.mjs:2 node:path"]);
    // TypeScript's `import x = require("y")` was no import: `fs-extra` was "no file imports".
    assert.deepEqual(await importers("fs-extra"), ["js/d.ts:1 fs-extra"]);
    assert.deepEqual(await importers("js/util"), ["js/d.ts:2 ./util"]);
    // What was right already, kept: `import("x")`, `import type`, an aliased Go path, `as`.
    assert.deepEqual(await importers("chalk"), ["js/a.js:2 chalk", "js/c.ts:1 chalk"]);
    assert.deepEqual(await importers("gopkg.in/yaml.v3"), ["go/main.go:4 gopkg.in/yaml.v3"]);
    assert.deepEqual(await importers("github.com/lib/pq"), ["go/main.go:5 github.com/lib/pq"]);
    assert.deepEqual(await importers("os.path"), ["py/a.py:1 os.path", "py/a.py:2 os"]);
  } finally {
    await client.close();
    await cleanup(root, indexDir);
  }
});
