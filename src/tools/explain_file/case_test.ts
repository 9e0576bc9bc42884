/**
 * `explain_file`'s case on the fixture project: its arguments, what its payload and its MCP text
 * must show. Every surface test runs it (`tests/surfaces_helpers.ts` gathers the cases).
 */

import { assert, names, type ToolCase } from "../../../tests/tool_case.ts";

/** The case. */
export const CASE: ToolCase = {
  args: { file_path: "app/main.py" },
  check(p, what) {
    assert.equal(p.language, "python", what);
    const found = names(p.symbols);
    for (const n of ["Greeter", "greet", "main"]) assert.ok(found.includes(n), `${what}: ${n}`);
  },
  text: (t) => {
    assert.match(t, /^# app\/main\.py — python, \d+ lines/);
    assert.match(
      t,
      /\n- 7: class Greeter: — Greets users by name\.\n {2}- 10: def __init__\([^\n]*\n {2}- 13: def greet\(/,
    );
    assert.match(t, /3: app\/models\.py \(Repository, User\)/);
  },
};
