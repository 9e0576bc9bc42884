/**
 * An outline of a file counts the tests that import it rather than naming them (issue 35): a
 * package's tests listed by name were half of what an assistant read of an outline; `codectx
 * deps FILE` lists them.
 */

import assert from "node:assert/strict";
import { renderText } from "../src/mcp/render.ts";
import { callTool, withExecutor } from "./helpers.ts";

Deno.test("explain_file: importers in code are listed, importers in tests counted", async () => {
  const files = {
    "lib.py": "def parse(text):\n    return text.split()\n",
    "app/use.py": "from lib import parse\n\nparse('a')\n",
    "tests/test_lib.py": "from lib import parse\n\n\ndef test_a():\n    assert parse('a')\n",
    "tests/test_more.py": "import lib\n\n\ndef test_b():\n    assert lib.parse('b')\n",
  };
  await withExecutor(files, async (ex) => {
    const p = await callTool(ex, "explain_file", { file_path: "lib.py" });
    assert.equal((p.imported_by as string[]).length, 3, "the payload keeps every importer");
    const text = renderText("explain_file", p);
    assert.match(text, /^Imported by 1 files \(\*\.py\):\n- app\/: use$/m, text);
    assert.match(text, /^and 2 test files \(deps lib\.py lists them\)$/m, text);
    assert.doesNotMatch(text, /test_lib|test_more/, text);
  });
});
