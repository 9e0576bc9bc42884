/**
 * `get_impact`'s case on the fixture project: a patch about to change slugify's signature
 * reaches main, which calls it. Every surface test runs it (`tests/surfaces_helpers.ts`
 * gathers the cases).
 */

import { arr, assert, obj, type ToolCase } from "../../../tests/tool_case.ts";

/** The case. */
export const CASE: ToolCase = {
  args: {
    diff: [
      "--- a/app/utils.py",
      "+++ b/app/utils.py",
      "@@ -8,3 +8,3 @@",
      "",
      "-def slugify(text: str) -> str:",
      '+def slugify(text: str, sep: str = "-") -> str:',
      '     """Turn a title into a URL slug."""',
      "",
    ].join("\n"),
  },
  check(p, what) {
    const changed = arr(p.changed).map(obj);
    assert.deepEqual(
      changed.map((c) => [c.qualified_name, c.change, c.signature_changed, c.file, c.line]),
      [["slugify", "modified", true, "app/utils.py", 9]],
      what,
    );
    const main = arr(p.impacted).map(obj).find((x) => x.qualified_name === "main");
    assert.deepEqual(
      [main?.file, main?.hop, main?.resolution, main?.path],
      ["app/main.py", 1, "exact", ["slugify", "main"]],
      `${what}: ${JSON.stringify(p.impacted)}`,
    );
    assert.equal(obj(arr(obj(p.risk).likely_breaks)[0]).reason, "signature_changed", what);
  },
  text: (t) => {
    assert.match(t, /^Impact of the diff: 1 files, 1 definitions changed/);
    assert.match(t, /\nChanged:\n- modified function slugify app\/utils\.py:9-11/);
    assert.match(
      t,
      /\nLikely to break:\n- slugify signature changed, still used 2×: app\/main\.py:4/,
    );
    assert.match(t, /\nHop 1:\n- main \(function\) app\/main\.py:18 ← slugify/);
  },
};
