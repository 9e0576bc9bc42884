/**
 * An exact search answers with the code's lines first (issue 35): in git, 9 of the first 10
 * hits of `core.editor` were in `t/` (git's and Celery's test folder, which was not taken for
 * one) and the one line of code that reads the setting was the first only by its path. Now
 * code comes first, then docs, then tests, and test hits are one line of `file:lines`.
 */

import assert from "node:assert/strict";
import { renderText } from "../src/mcp/render.ts";
import { isTestFile } from "../src/util/test_files.ts";
import { callTool, withExecutor } from "./helpers.ts";

const FILES: Record<string, string> = {
  "a/t1300-config.sh": "test_config core.editor 'echo'\n",
  "Documentation/config.txt": "core.editor::\n\tThe editor to use.\n",
  "t/t1300-config.sh": "test_config core.editor 'echo'\ngit config core.editor\n",
  "t/t7005-editor.sh": "test_description='core.editor'\n",
  "zeta.c": 'int editor(const char *var)\n{\n\treturn !strcmp(var, "core.editor");\n}\n',
};

Deno.test("search exact: code first, then docs, then tests in one line; t/ is a test folder", async () => {
  assert.ok(isTestFile("t/t1300-config.sh") && isTestFile("t/unit/app/test_x.py"));
  assert.ok(!isTestFile("tools/t.c") && !isTestFile("art/x.c"));
  await withExecutor(FILES, async (ex) => {
    const p = await callTool(ex, "semantic_search", {
      query: "core.editor",
      mode: "exact",
      include_tests: true,
      scope: "all",
      top_k: 4,
    });
    const files = (p.snippets as { file: string }[]).map((s) => s.file);
    // Before: the first four lines by path (a/…, Documentation/…, t/… twice): zeta.c left out.
    assert.deepEqual(files, [
      "a/t1300-config.sh",
      "zeta.c",
      "Documentation/config.txt",
      "t/t1300-config.sh",
    ]);
    const all = await callTool(ex, "semantic_search", {
      query: "core.editor",
      mode: "exact",
      include_tests: true,
      scope: "all",
    });
    const text = renderText("semantic_search", all);
    assert.match(text, /^in tests: t\/t1300-config\.sh:1,2 t\/t7005-editor\.sh:1$/m);
    assert.doesNotMatch(text, /test_description/);
  });
});
