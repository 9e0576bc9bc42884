/**
 * A long body's outline stays within the token budget, the lines that decide its flow too:
 * ansible's 421-line `TaskExecutor._execute` was outlined in 140 lines (8.9 KB) at the default
 * 1,000 tokens (issue 35, seventh blind run). Past the budget's share the outline stops and
 * says which lines it did not reach; a larger `max_tokens` reaches them.
 */

import assert from "node:assert/strict";
import { renderText } from "../src/mcp/render.ts";
import { tokenCounter } from "../src/context/tokens.ts";
import { callTool, withExecutor } from "./helpers.ts";

/** A function of `n` branches, each a condition and a return: every line decides its flow. */
function branches(n: number): string {
  const body = Array.from(
    { length: n },
    (_, i) =>
      `    if mode == "m${i}" and size > ${i}:\n        return handle_case_${i}(mode, size)\n`,
  ).join("");
  return `def dispatch(mode, size):\n    """Route a request to its handler."""\n${body}    return None\n`;
}

Deno.test("explain: a long body's outline keeps to the token budget and says which lines it did not reach", async () => {
  await withExecutor({ "app/route.py": branches(150) }, async (ex) => {
    const count = (await tokenCounter()).count;
    const p = await callTool(ex, "explain_symbol", { symbol_name: "dispatch" });
    const text = renderText("explain_symbol", p);
    const to = p.outline_to as number;
    assert.ok(to > 3 && to < 302, `outline_to ${to}`);
    assert.match(
      text,
      new RegExp(`^- … lines ${to + 1}-303 not outlined: over the token budget$`, "m"),
    );
    assert.ok(count(text) <= 1_000, `${count(text)} tokens`);
    assert.doesNotMatch(text, new RegExp(`^ *- ${to + 2}: `, "m"));
    // More tokens reach further; a body whose outline fits is outlined whole.
    const more = await callTool(ex, "explain_symbol", {
      symbol_name: "dispatch",
      max_tokens: 4000,
    });
    assert.ok((more.outline_to as number) > to, `${more.outline_to} > ${to}`);
    const all = await callTool(ex, "explain_symbol", {
      symbol_name: "dispatch",
      max_tokens: 32000,
    });
    assert.equal(all.outline_to, undefined);
    assert.doesNotMatch(renderText("explain_symbol", all), /not outlined/);
  });
});
