/**
 * `find_references`'s case on the fixture project: its arguments, what its payload and its MCP text
 * must show. Every surface test runs it (`tests/surfaces_helpers.ts` gathers the cases).
 */

import { arr, assert, obj, type ToolCase } from "../../../tests/tool_case.ts";

/** The case. */
export const CASE: ToolCase = {
  args: { symbol_name: "slugify" },
  check(p, what) {
    const refs = arr(p.references).map(obj);
    assert.ok(
      refs.some((r) => r.file === "app/main.py" && r.line === 24 && r.kind === "call"),
      `${what}: no call at app/main.py:24 in ${JSON.stringify(refs)}`,
    );
  },
  text: (t) => assert.match(t, /app\/main\.py\n {2}4 import\n {2}24 main: /),
};
