/**
 * `analyze_quality`'s case on the fixture project: its arguments, what its payload and its MCP text
 * must show. Every surface test runs it (`tests/surfaces_helpers.ts` gathers the cases).
 */

import { arr, assert, obj, type ToolCase } from "../../../tests/tool_case.ts";

/** The case. */
export const CASE: ToolCase = {
  args: {},
  check(p, what) {
    const main = arr(p.files).map(obj).find((f) => f.file === "app/main.py");
    // Greeter.__init__, Greeter.greet and main.
    assert.equal(main?.functions, 3, `${what}: ${JSON.stringify(main)}`);
  },
  text: (t) => assert.match(t, /maintainability \d+(\.\d+)? \([A-F]\)/),
};
