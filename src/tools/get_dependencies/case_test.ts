/**
 * `get_dependencies`'s case on the fixture project: its arguments, what its payload and its MCP text
 * must show. Every surface test runs it (`tests/surfaces_helpers.ts` gathers the cases).
 */

import { assert, names, type ToolCase } from "../../../tests/tool_case.ts";

/** The case. */
export const CASE: ToolCase = {
  args: { file_path: "app/main.py" },
  check(p, what) {
    assert.deepEqual(
      names(p.imports, "resolved").sort(),
      ["app/models.py", "app/utils.py"],
      what,
    );
  },
  text: (t) => assert.match(t, /^# app\/main\.py \(python\)\nImports[^]*app\/utils\.py/),
};
