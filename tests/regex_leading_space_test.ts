/**
 * A regex match is reported where its text is: `\s*import json` also matches the blank lines
 * above the import, and was reported at the line before them, with that line as its excerpt (an
 * assistant searching `^\s*(import sqlparse|from sqlparse)` on Django read the wrong lines,
 * issue 35). On a small project, through the executor.
 */

import assert from "node:assert/strict";
import { callTool, withExecutor } from "./helpers.ts";

Deno.test("regex search: a match starts at its first non-blank character", async () => {
  await withExecutor(
    { "app/main.py": "import os\n\n\nimport json\n\n\ndef f():\n    return json.dumps(os.sep)\n" },
    async (ex) => {
      await callTool(ex, "index_project", {});
      const p = await callTool(ex, "semantic_search", { query: "\\s*import json", mode: "regex" });
      const hits = p.snippets as Array<
        { file: string; line: number; end_line: number; snippet: string }
      >;
      assert.equal(hits.length, 1, JSON.stringify(hits));
      assert.equal(hits[0].line, 4);
      assert.equal(hits[0].end_line, 4);
      assert.match(hits[0].snippet, /import json/);
      assert.doesNotMatch(hits[0].snippet, /import os/);
    },
  );
});
