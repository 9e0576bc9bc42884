/**
 * `index_project`'s case on the fixture project: its arguments, what its payload and its MCP text
 * must show. Every surface test runs it (`tests/surfaces_helpers.ts` gathers the cases).
 */

import { assert, type ToolCase } from "../../../tests/tool_case.ts";

/** The case. */
export const CASE: ToolCase = {
  args: {},
  check(p, what) {
    assert.equal(p.state, "ready", what);
    assert.ok(Number(p.files) >= 9 && Number(p.symbols) >= 15, `${what}: ${JSON.stringify(p)}`);
  },
  text: (t) => assert.match(t, /^ready: \d+ files \(/),
};
