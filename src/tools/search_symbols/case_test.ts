/**
 * `search_symbols`'s case on the fixture project: its arguments, what its payload and its MCP text
 * must show. Every surface test runs it (`tests/surfaces_helpers.ts` gathers the cases).
 */

import { arr, assert, obj, type ToolCase } from "../../../tests/tool_case.ts";

/** The case. */
export const CASE: ToolCase = {
  args: { query: "Greeter" },
  check(p, what) {
    const first = obj(arr(p.symbols)[0]);
    assert.deepEqual([first.name, first.file, first.line], ["Greeter", "app/main.py", 7], what);
  },
  text: (t) =>
    assert.match(
      t,
      /^\d+ of \d+ symbols\n- app\/main\.py:7 class Greeter: — Greets users by name\./,
    ),
};
