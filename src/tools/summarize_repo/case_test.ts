/**
 * `summarize_repo`'s case on the fixture project: its arguments, what its payload and its MCP text
 * must show. Every surface test runs it (`tests/surfaces_helpers.ts` gathers the cases).
 */

import { assert, names, type ToolCase } from "../../../tests/tool_case.ts";

/** The case. */
export const CASE: ToolCase = {
  args: {},
  check(p, what) {
    // The module path is read from the fixture's go.mod.
    assert.equal(p.package, "example.com/fixture", what);
    assert.ok(names(p.entry_points, "file").includes("app/main.py"), what);
  },
  text: (t, s) => assert.equal(t, s.text),
};
