/**
 * `explain` answers "what does F do and call" in one read (issue 35): after `codectx explain`
 * an assistant still read the body and its callers' lines with `sed`, and a long body came as
 * 200 lines. Now the text shows the body (numbered lines) when it fits the token budget, else
 * the lines of its calls in order with the project symbols they reach; callers as file:line
 * (the JSON payload has each caller's line of code too). The MCP and CLI texts are one render.
 */

import assert from "node:assert/strict";
import { renderText } from "../src/mcp/render.ts";
import { callTool, cleanup, makeProject, runCli, tempIndexDir, withExecutor } from "./helpers.ts";

/** A long function: 120 lines of arithmetic around three calls. */
function longBody(): string {
  const lines = ["def process(items):", "    total = 0"];
  for (let i = 0; i < 40; i++) lines.push(`    total += ${i} * len(items) + ${i} // 3`);
  lines.push("    cleaned = clean(items)"); // 51
  for (let i = 0; i < 40; i++) lines.push(`    total -= ${i} * ${i + 1} - ${i * 7} // 5`);
  lines.push("    report(total, cleaned)"); // 92
  for (let i = 0; i < 40; i++) lines.push(`    total *= ${i + 2} % 7 + ${i} // 11`);
  lines.push("    return total");
  return lines.join("\n");
}

const FILES = {
  "work.py": [
    "def clean(items):", // 1
    "    return [i for i in items if i]", // 2
    "", // 3
    "", // 4
    "def report(total, cleaned):", // 5
    "    print(total, cleaned)", // 6
    "", // 7
    "", // 8
    longBody(), // 9-133
    "",
    "",
    "def main():",
    "    process([1, 2, 3])",
    "",
  ].join("\n"),
};

type CallLine = { line: number; text: string; callee: string; file: string | null };

Deno.test("explain_symbol: a long body answers with its call lines, a short one with itself", async () => {
  await withExecutor(FILES, async (ex) => {
    const p = await callTool(ex, "explain_symbol", { symbol_name: "process" });
    assert.ok(p.calls, "the call lines stand in for the body");
    const calls = (p.calls as CallLine[]).filter((c) => c.file);
    assert.deepEqual(calls.map((c) => `${c.line} ${c.callee} ${c.text}`), [
      "51 clean cleaned = clean(items)",
      "92 report report(total, cleaned)",
    ]);
    const text = renderText("explain_symbol", p);
    assert.match(text, /^- 51: cleaned = clean\(items\) → :1$/m);
    assert.match(text, /^- 92: report\(total, cleaned\) → :5$/m);
    assert.doesNotMatch(text, /total \*= 41/, "the long body is not in the text");
    // Before: `- main work.py:136`, the line of the call or of main's definition?
    assert.match(text, /^- main work\.py:\d+: process\(\[1, 2, 3\]\)$/m);
    assert.ok(text.length < 6000, `${text.length} characters`);

    const whole = await callTool(ex, "explain_symbol", {
      symbol_name: "process",
      max_tokens: 20_000,
    });
    assert.equal(whole.calls, undefined);
    assert.match(renderText("explain_symbol", whole), /total \*= 41 % 7/);
    const short = await callTool(ex, "explain_symbol", { symbol_name: "report" });
    assert.equal(short.calls, undefined);
    assert.match(
      renderText("explain_symbol", short),
      /```python\n5 def report\(total, cleaned\):\n6 {5}print/,
    );
    assert.match(
      renderText("explain_symbol", short),
      /^- process work\.py:92: report\(total, cleaned\)$/m,
    );
  });
});

Deno.test("codectx explain prints a long body's call lines and the callers' lines", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  try {
    const r = await runCli(["explain", "process", "--path", root, "--index-dir", indexDir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^Body: 125 lines \(9-133\); its calls by branch \(:N in this file\):$/m,
    );
    assert.match(r.stdout, /^- 51: cleaned = clean\(items\) → :1$/m);
    assert.match(r.stdout, /^- main work\.py:\d+: process\(\[1, 2, 3\]\)$/m);
    assert.doesNotMatch(r.stdout, /total \*= 41/);
  } finally {
    await cleanup(root, indexDir);
  }
});

Deno.test("explain_symbol: a body of 30 lines answers with its call lines at the default budget", async () => {
  // ~30 lines (~400 tokens): shown whole it cost an assistant more characters than reading it
  // with sed; its call lines answer "what does it do and call" (issue 35).
  const lines = ["def middle(items):", "    total = 0"];
  for (let i = 0; i < 13; i++) lines.push(`    total += ${i} * len(items) + ${i} // 3`);
  lines.push("    cleaned = clean(items)");
  for (let i = 0; i < 13; i++) lines.push(`    total -= ${i} * ${i + 1} - ${i * 7} // 5`);
  lines.push("    return total");
  await withExecutor({
    "work.py": `def clean(items):\n    return [i for i in items if i]\n\n\n${lines.join("\n")}\n`,
  }, async (ex) => {
    const p = await callTool(ex, "explain_symbol", { symbol_name: "middle" });
    assert.ok(p.calls, "the call lines stand in for the body");
    const text = renderText("explain_symbol", p);
    assert.match(text, /^- 20: cleaned = clean\(items\) → :1$/m);
    assert.doesNotMatch(text, /total -= 12/);
  });
});
