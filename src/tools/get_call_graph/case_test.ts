/**
 * `get_call_graph`'s case on the fixture project: its arguments, what its payload and its MCP text
 * must show. Every surface test runs it (`tests/surfaces_helpers.ts` gathers the cases).
 */

import { arr, assert, obj, type ToolCase } from "../../../tests/tool_case.ts";

/** The case. */
export const CASE: ToolCase = {
  args: { symbol_name: "main" },
  check(p, what) {
    assert.equal(obj(p.definition).file, "app/main.py", what);
    const callees = arr(p.callees).map(obj);
    assert.ok(
      callees.some((c) =>
        c.name === "parse_config" && c.file === "app/utils.py" && c.call_line === 20
      ),
      `${what}: parse_config is not a callee at line 20 in ${JSON.stringify(callees)}`,
    );
  },
  text: (t) => {
    assert.match(t, /^# main \(function\) app\/main\.py:18-24/);
    assert.match(
      t,
      /Callees:\n- parse_config \(function\) app\/utils\.py:14 ← call at app\/main\.py:20/,
    );
  },
};
