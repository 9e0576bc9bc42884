/**
 * Python `__all__` entries are references of their own kind, `export_list`: a caller can
 * tell them from uses in code (jedi does not count them, pyright does).
 */

import assert from "node:assert/strict";
import { refLines, withExecutor } from "./helpers.ts";

Deno.test("__all__ string entries are export_list references", async () => {
  await withExecutor({
    "pkg/__init__.py":
      '__all__ = ["parse", "Loader"]\n__all__ += ("dump",)\n\n\ndef parse(x):\n    return x\n\n\ndef dump(x):\n    return parse(x)\n\n\nclass Loader:\n    pass\n',
  }, async (ex) => {
    const parse = await refLines(ex, "parse");
    assert.ok(parse.includes("pkg/__init__.py:1 export_list exact"), parse.join("\n"));
    assert.ok(parse.includes("pkg/__init__.py:10 call exact"), parse.join("\n"));
    const dump = await refLines(ex, "dump");
    assert.ok(dump.includes("pkg/__init__.py:2 export_list exact"), dump.join("\n"));
    const loader = await refLines(ex, "Loader");
    assert.ok(loader.includes("pkg/__init__.py:1 export_list exact"), loader.join("\n"));
  });
});
