/**
 * `ask`'s case on the fixture project: its arguments, what its payload and its MCP text
 * must show. Every surface test runs it (`tests/surfaces_helpers.ts` gathers the cases).
 */

import { assert, type ToolCase } from "../../../tests/tool_case.ts";

/** The case. */
export const CASE: ToolCase = {
  args: { question: "where is the config parsed?" },
  check(p, what) {
    assert.match(String(p.answer), /parse_config/, what);
    assert.match(String(p.answer), /app\/utils\.py/, what);
  },
  text: (t, s) => {
    // The answer, less what it says twice (a signature that opens the code below it).
    const answer = String(s.answer);
    assert.ok(t.startsWith(answer.split("\n")[0]), t);
    for (const heading of answer.split("\n").filter((l) => l.startsWith("### "))) {
      assert.ok(t.includes(heading), heading);
    }
  },
};
