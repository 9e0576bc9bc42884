/**
 * Importers of a package or module (issue 35): "which files import package P" had no answer —
 * `codectx deps` gave per-package counts and `--json` no files, so an assistant ran `deps FILE`
 * file by file. `get_dependencies` with `package` (`codectx deps --package P`,
 * `GET /api/deps?package=P`) lists every file and line that imports it or a submodule of it.
 */

import assert from "node:assert/strict";
import { renderText } from "../src/mcp/render.ts";
import { callTool, cleanup, makeProject, runCli, tempIndexDir, withExecutor } from "./helpers.ts";
import { http, startIndexed } from "./surfaces_helpers.ts";

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
