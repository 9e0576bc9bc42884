/**
 * A file's path given to explain (issue 35): `codectx explain nova/scheduler/filters/__init__.py`
 * answered with near symbol names (`pp`, `API`, `IP`). Now it explains the file as explain_file
 * outlines it (its definitions, imports and importers), on MCP and the CLI alike.
 */

import assert from "node:assert/strict";
import { renderText } from "../src/mcp/render.ts";
import { callTool, cleanup, makeProject, runCli, tempIndexDir, withExecutor } from "./helpers.ts";

const FILES = {
  "pkg/filters/__init__.py": [
    "from pkg import base",
    "",
    "class HostFilter(base.Base):",
    '    """Base class for host filters."""',
    "    def passes(self, host):",
    "        return True",
    "",
  ].join("\n"),
  "pkg/base.py": "class Base:\n    pass\n",
  "pkg/main.py": "from pkg.filters import HostFilter\n\nHostFilter().passes(1)\n",
  "src/keys.c": '#include "keys.h"\n\nint keys_mouse(int b)\n{\n\treturn b;\n}\n',
  "src/keys.h": "int keys_mouse(int b);\n",
};

Deno.test("explain_symbol: a file's path explains the file", async () => {
  await withExecutor(FILES, async (ex) => {
    const p = await callTool(ex, "explain_symbol", { symbol_name: "pkg/filters/__init__.py" });
    assert.equal((p.symbol as { kind: string }).kind, "file");
    const text = renderText("explain_symbol", p);
    assert.match(text, /^# pkg\/filters\/__init__\.py — python, \d+ lines$/m);
    assert.match(text, /^- 3: class HostFilter\(base\.Base\): — Base class for host filters\.$/m);
    assert.match(text, /^- 1: pkg\/base\.py \(base\)$/m);
    assert.match(text, /Imported by 1 files/);
    const c = renderText(
      "explain_symbol",
      await callTool(ex, "explain_symbol", { symbol_name: "src/keys.c" }),
    );
    assert.match(c, /^# src\/keys\.c — c, \d+ lines$/m);
    assert.match(c, /^- 3: int keys_mouse\(int b\)/m);
  });
});

Deno.test("codectx explain FILE prints the file's outline", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  try {
    const r = await runCli(["explain", "src/keys.c", "--path", root, "--index-dir", indexDir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^# src\/keys\.c — c, \d+ lines$/m);
    assert.match(r.stdout, /^- 3: int keys_mouse\(int b\)/m);
  } finally {
    await cleanup(root, indexDir);
  }
});
