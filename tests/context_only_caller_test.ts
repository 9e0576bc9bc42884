/**
 * get_context at a small budget keeps a function's only caller: where it is called from is
 * scarce and tells what it is for, so it is not crowded out by the many things it calls.
 */

import assert from "node:assert/strict";
import { callTool, withExecutor } from "./helpers.ts";

/** 30 helpers with long signatures, a function that calls them all, and its one caller. */
function project(): Record<string, string> {
  const helpers: string[] = [];
  const calls: string[] = [];
  for (let i = 0; i < 30; i++) {
    helpers.push(
      `def helper_${i}(\n    first_argument_${i},\n    second_argument_${i},\n` +
        `    third_argument_${i},\n    fourth_argument_${i},\n):\n` +
        `    """Helper number ${i} of the pipeline, which transforms the record."""\n` +
        `    return first_argument_${i}\n`,
    );
    calls.push(`    record = helper_${i}(record, 1, 2, 3)`);
  }
  return {
    "pipeline/helpers.py": helpers.join("\n\n"),
    "pipeline/process.py": [
      "from pipeline.helpers import *",
      "",
      "",
      "def process(record):",
      '    """Runs every step of the pipeline on one record."""',
      ...calls,
      "    return record",
      "",
    ].join("\n"),
    "pipeline/cli.py": [
      "from pipeline.process import process",
      "",
      "",
      "def main_entry(argv):",
      "    for line in argv:",
      "        print(process(line))",
      "",
    ].join("\n"),
  };
}

Deno.test("get_context at 1,500 tokens keeps the only caller", async () => {
  await withExecutor(project(), async (ex) => {
    const w = await callTool(ex, "get_context", { symbol_name: "process", max_tokens: 1500 });
    assert.ok((w.tokens as number) <= 1500);
    assert.match(w.text as string, /## Called from/);
    assert.match(w.text as string, /main_entry/);
    assert.equal(w.truncated, true, "the budget is too small for everything: the test needs that");
  });
});
