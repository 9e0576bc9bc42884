/**
 * `get_context`'s case on the fixture project: its arguments, what its payload and its MCP text
 * must show. Every surface test runs it (`tests/surfaces_helpers.ts` gathers the cases).
 */

import { assert, type ToolCase } from "../../../tests/tool_case.ts";

/** The case. */
export const CASE: ToolCase = {
  args: { symbol_name: "main", max_tokens: 400 },
  check(p, what) {
    assert.deepEqual([p.file, p.line], ["app/main.py", 18], what);
    assert.match(String(p.text), /def main\(config_path: str\)/, what);
  },
  text: (t, s) => {
    // The window as it is, except call sites: one line each (file:line in caller: the call).
    const [head, callers] = String(s.text).split("\n## Called from\n");
    assert.ok(t.startsWith(head), t);
    if (callers !== undefined) assert.match(t, /\n## Called from\n- \S+:\d+/);
  },
};
