/**
 * `semantic_search`'s case on the fixture project: its arguments, what its payload and its MCP text
 * must show. Every surface test runs it (`tests/surfaces_helpers.ts` gathers the cases).
 */

import { arr, assert, obj, type ToolCase } from "../../../tests/tool_case.ts";

/** The case. */
export const CASE: ToolCase = {
  args: { query: "greet a user", top_k: 3 },
  check(p, what) {
    const hits = arr(p.snippets).map(obj);
    assert.ok(
      hits.some((h) => h.file === "app/main.py" && /greet/.test(String(h.snippet))),
      `${what}: no snippet of app/main.py about greeting in ${JSON.stringify(hits)}`,
    );
  },
  text: (t) => assert.match(t, /^\d+ results \(hybrid[^]*app\/main\.py:\d+/),
};
