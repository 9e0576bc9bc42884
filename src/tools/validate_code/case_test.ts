/**
 * `validate_code`'s case on the fixture project: its arguments, what its payload and its MCP text
 * must show. Every surface test runs it (`tests/surfaces_helpers.ts` gathers the cases).
 */

import { arr, assert, obj, type ToolCase } from "../../../tests/tool_case.ts";

/** The case. */
export const CASE: ToolCase = {
  args: { code: "def f(:\n  pass\n", language: "python" },
  check(p, what) {
    assert.equal(p.valid, false, what);
    assert.equal(obj(arr(p.syntax_errors)[0]).line, 1, what);
  },
  text: (t) => assert.match(t, /^not valid python\nSyntax errors:\n- 1:\d+ /),
};
