/**
 * `explain_symbol`'s case on the fixture project: its arguments, what its payload and its MCP text
 * must show. Every surface test runs it (`tests/surfaces_helpers.ts` gathers the cases).
 */

import { assert, names, obj, type ToolCase } from "../../../tests/tool_case.ts";

/** The case. */
export const CASE: ToolCase = {
  args: { symbol_name: "Greeter" },
  check(p, what) {
    const s = obj(p.symbol);
    assert.deepEqual([s.file, s.line, s.kind], ["app/main.py", 7, "class"], what);
    assert.ok(names(p.children).includes("greet"), what);
  },
  text: (t) => {
    assert.match(t, /^# Greeter — class in app\/main\.py:7-15/);
    assert.match(t, /```python\n7 class Greeter:/);
    assert.match(t, /Used by \(\d+\):\n- main app\/main\.py:24/);
  },
};
